package dev.crid;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import org.jspecify.annotations.Nullable;

/**
 * An ID as a value: a non-negative {@code long} that prints and parses as a decimal
 * string. Use it where a typed ID reads better than a bare {@code long}, or where the ID
 * travels as text (JSON, URLs): JavaScript numbers cannot hold every 63-bit value
 * exactly, decimal strings can.
 *
 * <p>
 * It also has a short form for URLs and people: {@link #toBase32()} writes the ID in 13
 * characters of Crockford's base32, and {@link #parseBase32(CharSequence)} reads it back,
 * forgiving what people get wrong when they copy an ID by hand. The two forms are never
 * guessed between: {@code 0000000000001} is valid in both (one in base32, a thousand
 * million and one in decimal), so the caller says which it has.
 *
 * <p>
 * Immutable; equal IDs are equal values; ordered by their numeric value.
 */
public final class CridId implements Comparable<CridId>, Serializable {

	private static final long serialVersionUID = 1L;

	/**
	 * Crockford's base32 alphabet: digit {@code d} is {@code BASE32.charAt(d)}. In
	 * ascending ASCII order.
	 */
	private static final String BASE32 = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

	/** Characters in {@link #toBase32()}: 13 of 5 bits hold the 63 bits of any ID. */
	private static final int BASE32_LENGTH = 13;

	/**
	 * The base32 digits as bytes, for writing without a lookup through
	 * {@link String#charAt(int)}.
	 */
	private static final byte[] BASE32_DIGITS = BASE32.getBytes(StandardCharsets.US_ASCII);

	/** Marks an ASCII character that is no base32 digit in {@link #BASE32_VALUES}. */
	private static final byte NOT_A_DIGIT = -1;

	/**
	 * Marks the hyphen, which {@link #parseBase32(CharSequence)} skips, in
	 * {@link #BASE32_VALUES}.
	 */
	private static final byte HYPHEN = -2;

	/**
	 * The digit each ASCII character stands for in base32 input, or one of the two marks
	 * above.
	 */
	private static final byte[] BASE32_VALUES = base32Values();

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
	 * Parses a decimal ID: digits only, no sign, no blanks, at most
	 * {@link Long#MAX_VALUE}.
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

	/**
	 * Parses the base32 form of an ID that {@link #toBase32()} writes, forgiving what
	 * people get wrong when they copy it: letters in either case, {@code I} and {@code L}
	 * for {@code 1}, {@code O} for {@code 0}, and hyphens anywhere (they are skipped, so
	 * {@code 0000-0000-0000-1} may group the characters). Leading zeros may be left out.
	 * Anything else is refused: any other character (blanks and signs included, and
	 * {@code U}, which Crockford's alphabet leaves out), no base32 character at all, more
	 * than 13 of them, or a value above {@link Long#MAX_VALUE} ({@code 7ZZZZZZZZZZZZ}).
	 *
	 * <pre>{@code
	 * CridId.parseBase32("00001YG000007")      // 2147483648007
	 * CridId.parseBase32("00001yg000007")      // the same: case does not matter
	 * CridId.parseBase32("0000-1YG0-0000-7")  // the same: hyphens are skipped
	 * CridId.parseBase32("OOOOOOOOOOOOI")      // 1: O is read as 0, I (and L) as 1
	 * CridId.parseBase32("Z")                  // 31
	 * CridId.parseBase32("8000000000000")      // IllegalArgumentException: above 7ZZZZZZZZZZZZ
	 * CridId.parseBase32("0000000000U01")      // IllegalArgumentException: U is no base32 digit
	 * }</pre>
	 * @param text the base32 text
	 * @return the ID
	 * @throws IllegalArgumentException quoting the text, and saying what is wrong with
	 * it, if it is not such a form
	 */
	public static CridId parseBase32(CharSequence text) {
		if (text == null) {
			throw invalidBase32(null, "no text");
		}
		long value = 0;
		int digits = 0;
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			int digit = (c < BASE32_VALUES.length) ? BASE32_VALUES[c] : NOT_A_DIGIT;
			if (digit >= 0) {
				if (++digits > BASE32_LENGTH) {
					throw invalidBase32(text, "more than " + BASE32_LENGTH + " base32 characters");
				}
				if (value > (Long.MAX_VALUE >>> 5)) {
					throw invalidBase32(text, "a value above " + Long.MAX_VALUE + " (7ZZZZZZZZZZZZ)");
				}
				value = (value << 5) | digit;
			}
			else if (digit == NOT_A_DIGIT) {
				throw invalidBase32(text, "'" + c + "' at index " + i + ", which is no base32 character");
			}
		}
		if (digits == 0) {
			throw invalidBase32(text, "no base32 character");
		}
		return new CridId(value);
	}

	private static IllegalArgumentException invalidBase32(@Nullable CharSequence text, String problem) {
		String shown = (text != null) ? "\"" + text + "\"" : "null";
		return new IllegalArgumentException("Invalid base32 crid ID " + shown + ": it has " + problem
				+ "; expected 1 to 13 characters of Crockford's base32 (0-9 and A-Z without U, in either case; "
				+ "I and L read as 1, O as 0; hyphens skipped) for a value from 0 to 7ZZZZZZZZZZZZ");
	}

	private static byte[] base32Values() {
		byte[] values = new byte[128];
		Arrays.fill(values, NOT_A_DIGIT);
		for (int digit = 0; digit < BASE32.length(); digit++) {
			char c = BASE32.charAt(digit);
			values[c] = (byte) digit;
			values[Character.toLowerCase(c)] = (byte) digit;
		}
		for (char c : new char[] { 'O', 'o' }) {
			values[c] = 0;
		}
		for (char c : new char[] { 'I', 'i', 'L', 'l' }) {
			values[c] = 1;
		}
		values['-'] = HYPHEN;
		return values;
	}

	private static IllegalArgumentException invalid(String text) {
		String shown = (text != null) ? "\"" + text + "\"" : "null";
		return new IllegalArgumentException("Invalid crid ID " + shown + ": expected a decimal number from 0 to "
				+ Long.MAX_VALUE + " without sign or blanks");
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
	 * Returns the ID in Crockford's base32, the short form
	 * {@link #parseBase32(CharSequence)} reads: always 13 characters, zero-padded, upper
	 * case, from the alphabet {@code 0123456789ABCDEFGHJKMNPQRSTVWXYZ} (no {@code I},
	 * {@code L}, {@code O} or {@code U}, which are easily misread). Because the length is
	 * fixed and the alphabet is in ASCII order, the strings sort as the IDs do.
	 *
	 * <pre>{@code
	 * CridId.of(0).toBase32()                    // "0000000000000"
	 * CridId.of(31).toBase32()                   // "000000000000Z"
	 * CridId.of(32).toBase32()                   // "0000000000010"
	 * CridId.of(2147483648007L).toBase32()       // "00001YG000007"
	 * CridId.of(Long.MAX_VALUE).toBase32()       // "7ZZZZZZZZZZZZ"
	 * }</pre>
	 * @return the 13 characters
	 */
	public String toBase32() {
		byte[] characters = new byte[BASE32_LENGTH];
		long rest = this.value;
		for (int i = BASE32_LENGTH - 1; i >= 0; i--) {
			characters[i] = BASE32_DIGITS[(int) (rest & 31)];
			rest >>>= 5;
		}
		return new String(characters, StandardCharsets.US_ASCII);
	}

	/**
	 * Returns the ID in decimal, the form {@link #parse(String)} reads.
	 */
	@Override
	public String toString() {
		return Long.toString(this.value);
	}

	/**
	 * Checks a deserialized value as {@link #of(long)} does, so a forged stream cannot
	 * make a negative ID.
	 * @return the checked ID
	 */
	private Object readResolve() {
		return of(this.value);
	}

}
