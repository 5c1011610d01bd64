package dev.crid.etcd;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;

import io.etcd.jetcd.KV;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import org.jspecify.annotations.Nullable;

import dev.crid.CridException;
import dev.crid.CridLayout;
import dev.crid.RegistryException;

/**
 * The layout the registry was first used with, in its own key as
 * {@code epoch=2026-01-01T00:00:00Z timestampBits=31 sequenceBits=32}: written by the
 * first node's layout check in a transaction that writes only while the key is missing,
 * and read back by every later check.
 */
final class LayoutRecord {

	private final KV kv;

	private final RegistryKeys keys;

	private final EtcdCalls calls;

	LayoutRecord(KV kv, RegistryKeys keys, EtcdCalls calls) {
		this.kv = kv;
		this.keys = keys;
		this.calls = calls;
	}

	/**
	 * Records the layout unless one is recorded already, and returns the one recorded.
	 */
	CridLayout claim(CridLayout layout) {
		String task = "check the layout in etcd key '" + this.keys.layoutName() + "'";
		TxnResponse answer = this.calls.await(task, this.calls.deadline(),
				() -> this.kv.txn()
					.If(KeyState.MISSING.unchanged(this.keys.layout()))
					.Then(Op.put(this.keys.layout(), RegistryKeys.bytes(encode(layout)), PutOption.DEFAULT))
					.Else(Op.get(this.keys.layout(), GetOption.DEFAULT))
					.commit());
		if (answer.isSucceeded()) {
			return layout;
		}
		GetResponse recorded = answer.getGetResponses().get(0);
		return decode(recorded.getKvs().get(0).getValue().toString(StandardCharsets.UTF_8));
	}

	static String encode(CridLayout layout) {
		return "epoch=" + layout.epoch() + " timestampBits=" + layout.timestampBits() + " sequenceBits="
				+ layout.sequenceBits();
	}

	private CridLayout decode(String text) {
		String[] fields = text.split(" ", -1);
		try {
			if (fields.length == 3 && fields[0].startsWith("epoch=") && fields[1].startsWith("timestampBits=")
					&& fields[2].startsWith("sequenceBits=")) {
				return CridLayout.of(Instant.parse(value(fields[0])), Integer.parseInt(value(fields[1])),
						Integer.parseInt(value(fields[2])));
			}
		}
		catch (DateTimeParseException | NumberFormatException | CridException ex) {
			throw unreadable(text, ex);
		}
		throw unreadable(text, null);
	}

	private static String value(String field) {
		return field.substring(field.indexOf('=') + 1);
	}

	private RegistryException unreadable(String text, @Nullable Exception cause) {
		return new RegistryException("The crid registry's etcd key '" + this.keys.layoutName() + "' holds '" + text
				+ "', which is no layout crid wrote. Remove the stray write, or give the registry a key prefix of "
				+ "its own", cause, false);
	}

}
