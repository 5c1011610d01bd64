package dev.crid.etcd;

import java.nio.charset.StandardCharsets;

import io.etcd.jetcd.ByteSequence;

/**
 * Where the registry keeps what it knows, all under one prefix: one key per second,
 * {@code <prefix>seconds/<second>}, the second as 19 zero-padded decimal digits so that
 * the keys sort as their seconds do and a range of keys is a range of seconds;
 * {@code <prefix>evicted-before}, the eviction watermark; and {@code <prefix>layout}, the
 * layout the registry was first used with. Every value is ASCII text.
 */
final class RegistryKeys {

	private static final String SECONDS = "seconds/";

	private final String prefix;

	private final ByteSequence watermark;

	private final ByteSequence layout;

	RegistryKeys(String prefix) {
		this.prefix = prefix;
		this.watermark = bytes(prefix + "evicted-before");
		this.layout = bytes(prefix + "layout");
	}

	/** The key of a second. */
	ByteSequence second(long timestamp) {
		return bytes(secondName(timestamp));
	}

	/** The key of a second, as text, for messages. */
	String secondName(long timestamp) {
		return this.prefix + SECONDS + String.format("%019d", timestamp);
	}

	/** The second a key of {@link #second} names. */
	long timestampOf(ByteSequence key) {
		String name = key.toString(StandardCharsets.US_ASCII);
		return Long.parseLong(name.substring(this.prefix.length() + SECONDS.length()));
	}

	ByteSequence watermark() {
		return this.watermark;
	}

	String watermarkName() {
		return this.prefix + "evicted-before";
	}

	ByteSequence layout() {
		return this.layout;
	}

	String layoutName() {
		return this.prefix + "layout";
	}

	String prefix() {
		return this.prefix;
	}

	static ByteSequence bytes(String text) {
		return ByteSequence.from(text, StandardCharsets.UTF_8);
	}

	static ByteSequence number(long value) {
		return ByteSequence.from(Long.toString(value), StandardCharsets.US_ASCII);
	}

}
