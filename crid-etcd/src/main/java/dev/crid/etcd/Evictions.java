package dev.crid.etcd;

import io.etcd.jetcd.KV;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;

import dev.crid.RegistryException;

/**
 * Evicts old seconds: first raises the watermark, then deletes the seconds' keys below
 * it. The raise is a compare-and-swap on the watermark key, which every reservation's
 * transaction also compares: a reservation that read the watermark before the raise
 * cannot commit after it, and reads it anew, so once the raise has committed no
 * reservation for a second below it can, from any process. Deletion then goes a bounded
 * range of seconds per request, oldest first, until none is left or the budget is spent.
 */
final class Evictions {

	/** Seconds of keys one delete request removes at most. */
	private static final long SECONDS_PER_DELETE = 3_600;

	private static final int MAX_ATTEMPTS = 64;

	private final KV kv;

	private final RegistryKeys keys;

	private final EtcdCalls calls;

	Evictions(KV kv, RegistryKeys keys, EtcdCalls calls) {
		this.kv = kv;
		this.keys = keys;
		this.calls = calls;
	}

	/**
	 * Raises the watermark to {@code before} unless it is that high already, then deletes
	 * the keys of the seconds below it for at most {@code budgetNanos}.
	 */
	Deleted evictBefore(long before, long budgetNanos) {
		long started = System.nanoTime();
		raiseWatermark(before);
		long deleted = 0;
		while (true) {
			String task = "evict the seconds before " + before + " under etcd prefix '" + this.keys.prefix() + "'";
			GetResponse oldest = this.calls.await(task, this.calls.deadline(), () -> this.kv.get(this.keys.second(0),
					GetOption.builder().withRange(this.keys.second(before)).withLimit(1).withKeysOnly(true).build()));
			if (oldest.getKvs().isEmpty()) {
				return new Deleted(deleted, true);
			}
			if (System.nanoTime() - started > budgetNanos) {
				return new Deleted(deleted, false);
			}
			long from = this.keys.timestampOf(oldest.getKvs().get(0).getKey());
			long upTo = (from > before - SECONDS_PER_DELETE) ? before : from + SECONDS_PER_DELETE;
			deleted += this.calls
				.await(task, this.calls.deadline(), () -> this.kv.delete(this.keys.second(from),
						DeleteOption.builder().withRange(this.keys.second(upTo)).build()))
				.getDeleted();
		}
	}

	private void raiseWatermark(long before) {
		String task = "raise the eviction watermark '" + this.keys.watermarkName() + "' to " + before;
		long deadline = this.calls.deadline();
		KeyState watermark = KeyState.of(this.calls.await(task, deadline, () -> this.kv.get(this.keys.watermark())),
				this.keys.watermarkName());
		for (int attempt = 1; watermark.value() < before; attempt++) {
			KeyState read = watermark;
			TxnResponse answer = this.calls.await(task, deadline,
					() -> this.kv.txn()
						.If(read.unchanged(this.keys.watermark()))
						.Then(Op.put(this.keys.watermark(), RegistryKeys.number(before), PutOption.DEFAULT))
						.Else(Op.get(this.keys.watermark(), GetOption.DEFAULT))
						.commit());
			if (answer.isSucceeded()) {
				return;
			}
			if (attempt >= MAX_ATTEMPTS) {
				throw new RegistryException("Could not " + task + ": the key changed " + attempt + " times in a row");
			}
			watermark = KeyState.of(answer.getGetResponses().get(0), this.keys.watermarkName());
		}
	}

	/**
	 * What an eviction deleted.
	 *
	 * @param keys the seconds' keys deleted
	 * @param complete whether every second below the watermark is gone
	 */
	record Deleted(long keys, boolean complete) {
	}

}
