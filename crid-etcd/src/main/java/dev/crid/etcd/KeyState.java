package dev.crid.etcd;

import java.nio.charset.StandardCharsets;
import java.util.List;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import org.jspecify.annotations.Nullable;

import dev.crid.RegistryException;

/**
 * A number key as read: its value, and the revision of its last change, which a
 * transaction compares to write only over what was read. A missing key reads as 0 at
 * revision 0, and etcd compares a missing key's revision as 0 too, so one comparison
 * covers both "unchanged" and "still missing".
 *
 * @param value the number the key holds, 0 when missing
 * @param modRevision the revision of the key's last change, 0 when missing
 */
record KeyState(long value, long modRevision) {

	static final KeyState MISSING = new KeyState(0, 0);

	/**
	 * The state of the one key a get asked for.
	 * @throws RegistryException (not retryable) when the key holds no non-negative number
	 */
	static KeyState of(GetResponse response, String keyName) {
		List<KeyValue> found = response.getKvs();
		if (found.isEmpty()) {
			return MISSING;
		}
		KeyValue key = found.get(0);
		String text = key.getValue().toString(StandardCharsets.US_ASCII);
		long value;
		try {
			value = Long.parseLong(text);
		}
		catch (NumberFormatException ex) {
			throw corrupt(keyName, text, ex);
		}
		if (value < 0) {
			throw corrupt(keyName, text, null);
		}
		return new KeyState(value, key.getModRevision());
	}

	/** A comparison that holds while the key is as read. */
	Cmp unchanged(ByteSequence key) {
		return new Cmp(key, Cmp.Op.EQUAL, CmpTarget.modRevision(this.modRevision));
	}

	private static RegistryException corrupt(String keyName, String text, @Nullable NumberFormatException cause) {
		return new RegistryException("The crid registry's etcd key '" + keyName + "' holds '" + text
				+ "', which is no sequence number: it was written by something else than crid. Remove the stray "
				+ "write, or give the registry a key prefix of its own", cause, false);
	}

}
