package dev.crid.etcd;

import java.util.concurrent.locks.ReentrantLock;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;

import dev.crid.RegistryException;

/**
 * Reserves blocks by compare-and-swap. A reservation writes the second's new
 * {@code next_seq} in a transaction that commits only if neither the second's key nor the
 * eviction watermark changed since they were read; when either did, the same transaction
 * reads both anew, and the reservation tries again on what it read, at most
 * {@value #MAX_ATTEMPTS} times and within the registry's timeout. Only a transaction that
 * commits hands out numbers, so no two reservations can get the same ones, whoever loses,
 * fails or times out; a transaction whose answer was lost may have committed, which
 * leaves a gap and nothing worse.
 *
 * <p>
 * Reservations through one registry take turns, first come first served, each waiting for
 * its turn within its timeout: threads of one process never race each other for a key,
 * only processes do, and a process that lost a race knows what won, from its own
 * transaction's answer. It tries again at once the first time; after two losses in a row
 * it first pauses a random moment of at most {@value #MAX_PAUSE_MILLIS} ms, the same
 * whatever the count, so that racers spread out without the one that lost most waiting
 * longest.
 *
 * <p>
 * The first transaction of a reservation compares with what this registry last saw of the
 * second and of the watermark, so a node that reserves alone needs one round trip.
 * Nothing but the comparison relies on that memory: a stale guess only costs a round
 * trip. A second below the watermark is refused, not retryably, once a fresh read of the
 * watermark confirms it.
 */
final class BlockReservations {

	private static final int MAX_ATTEMPTS = 64;

	/** The longest pause between two attempts, in milliseconds. */
	private static final long MAX_PAUSE_MILLIS = 5;

	private final KV kv;

	private final RegistryKeys keys;

	private final EtcdCalls calls;

	private volatile SecondState lastSecond = new SecondState(-1, KeyState.MISSING);

	private volatile KeyState watermark = KeyState.MISSING;

	private final ReentrantLock turns = new ReentrantLock(true);

	BlockReservations(KV kv, RegistryKeys keys, EtcdCalls calls) {
		this.kv = kv;
		this.keys = keys;
		this.calls = calls;
	}

	long reserve(long timestamp, long blockSize) {
		String task = "reserve " + blockSize + " sequence numbers of second " + timestamp + " in etcd key '"
				+ this.keys.secondName(timestamp) + "'";
		long deadline = this.calls.deadline();
		this.calls.awaitTurn(this.turns, task, deadline);
		try {
			return reserve(timestamp, blockSize, task, deadline);
		}
		finally {
			this.turns.unlock();
		}
	}

	private long reserve(long timestamp, long blockSize, String task, long deadline) {
		ByteSequence key = this.keys.second(timestamp);
		SecondState last = this.lastSecond;
		KeyState second = (last.timestamp == timestamp) ? last.state : KeyState.MISSING;
		KeyState watermark = this.watermark;
		boolean watermarkRead = false;
		for (int attempt = 1;; attempt++) {
			if (timestamp < watermark.value()) {
				if (watermarkRead) {
					throw evicted(timestamp, watermark.value());
				}
				watermark = readWatermark(task, deadline);
				watermarkRead = true;
				continue;
			}
			long start = second.value();
			long next = (start > Long.MAX_VALUE - blockSize) ? Long.MAX_VALUE : start + blockSize;
			KeyState readSecond = second;
			KeyState readWatermark = watermark;
			TxnResponse answer = this.calls.await(task, deadline,
					() -> this.kv.txn()
						.If(readSecond.unchanged(key), readWatermark.unchanged(this.keys.watermark()))
						.Then(Op.put(key, RegistryKeys.number(next), PutOption.DEFAULT))
						.Else(Op.get(key, GetOption.DEFAULT), Op.get(this.keys.watermark(), GetOption.DEFAULT))
						.commit());
			if (answer.isSucceeded()) {
				this.lastSecond = new SecondState(timestamp, new KeyState(next, answer.getHeader().getRevision()));
				return start;
			}
			second = KeyState.of(answer.getGetResponses().get(0), this.keys.secondName(timestamp));
			watermark = KeyState.of(answer.getGetResponses().get(1), this.keys.watermarkName());
			watermarkRead = true;
			this.lastSecond = new SecondState(timestamp, second);
			this.watermark = watermark;
			if (attempt >= MAX_ATTEMPTS) {
				throw new RegistryException("Could not " + task + ": " + attempt
						+ " compare-and-swap attempts in a row lost to other reservations of the same second");
			}
			if (attempt > 1) {
				// The first loss is most often a stale guess; later ones are contention.
				this.calls.pause(task, MAX_PAUSE_MILLIS, deadline);
			}
		}
	}

	private KeyState readWatermark(String task, long deadline) {
		KeyState read = KeyState.of(this.calls.await(task, deadline, () -> this.kv.get(this.keys.watermark())),
				this.keys.watermarkName());
		this.watermark = read;
		return read;
	}

	private RegistryException evicted(long timestamp, long watermark) {
		return new RegistryException("Second " + timestamp + " is older than the seconds the crid registry under etcd "
				+ "prefix '" + this.keys.prefix() + "' still holds: every second before " + watermark + " was evicted, "
				+ "and the registry refuses to hand out their numbers again. The node's clock is behind the others' "
				+ "by more than the registry's retention", null, false);
	}

	private record SecondState(long timestamp, KeyState state) {
	}

}
