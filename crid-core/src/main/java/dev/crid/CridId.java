package dev.crid;

import java.io.Serializable;

import org.jspecify.annotations.Nullable;

/**
 * An ID as a value: a non-negative {@code long} that prints and parses as a decimal string. Use it where
 * a typed ID reads better than a bare {@code long}, or where the ID travels as text (JSON, URLs):
 * JavaScript numbers cannot hold every 63-bit value exactly, decimal strings can.
 *
 * <p>Immutable; equal IDs are equal values; ordered by their numeric value.
 */
public final class CridId implements Comparable<CridId>, Serializable {

	private static final long serialVersionUID = 1L;

	/** The ID, never negative. */
	private final long value;

	private CridId(long value) {
		this.value = value;
	}

	/**
	 * Returns the ID with the given value.
	 * @param value the ID, never negative
	 * @return the ID
	 * @throws IllegalArgumentException if the value is negative
	 */
	public static CridId of(long value) {
		if (value < 0) {
			throw new IllegalArgumentException("Invalid crid ID " + value + ": IDs are never negative");
		}
		return new CridId(value);
	}

	/**
	 * Parses a decimal ID: digits only, no sign, no blanks, at most {@link Long#MAX_VALUE}.
	 * @param text the decimal text
	 * @return the ID
	 * @throws IllegalArgumentException quoting the text if it is not such a number
	 */
	public static CridId parse(String text) {
		if (text == null || text.isEmpty()) {
			throw invalid(text);
		}
		long value = 0;
		for (int i = 0; i < text.length(); i++) {
			int digit = text.charAt(i) - '0';
			if (digit < 0 || digit > 9) {
				throw invalid(text);
			}
			if (value > (Long.MAX_VALUE - digit) / 10) {
				throw invalid(text);
			}
			value = value * 10 + digit;
		}
		return new CridId(value);
	}

	private static IllegalArgumentException invalid(String text) {
		String shown = (text != null) ? "\"" + text + "\"" : "null";
		return new IllegalArgumentException("Invalid crid ID " + shown
				+ ": expected a decimal number from 0 to " + Long.MAX_VALUE + " without sign or blanks");
	}

	/**
	 * Returns the ID's value.
	 * @return the value, never negative
	 */
	public long value() {
		return this.value;
	}

	@Override
	public int compareTo(CridId other) {
		return Long.compare(this.value, other.value);
	}

	@Override
	public boolean equals(@Nullable Object other) {
		return (this == other) || (other instanceof CridId that && this.value == that.value);
	}

	@Override
	public int hashCode() {
		return Long.hashCode(this.value);
	}

	/**
	 * Returns the ID in decimal, the form {@link #parse(String)} reads.
	 */
	@Override
	public String toString() {
		return Long.toString(this.value);
	}

	/**
	 * Checks a deserialized value as {@link #of(long)} does, so a forged stream cannot make a negative ID.
	 * @return the checked ID
	 */
	private Object readResolve() {
		return of(this.value);
	}

}
