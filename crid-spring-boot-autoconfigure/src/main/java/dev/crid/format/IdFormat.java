package dev.crid.format;

import java.util.Locale;

import dev.crid.CridId;

/**
 * The forms of a crid ID as text. Each reads its own form only: the two overlap
 * ({@code 0000000000001} is valid in both, and {@code 0000000000010} is 10 in one and 32
 * in the other), so text is never guessed to be one or the other.
 */
public enum IdFormat {

	/**
	 * The decimal value, as {@link CridId#toString()} writes it and
	 * {@link CridId#parse(String)} reads it.
	 */
	DECIMAL,

	/**
	 * Crockford's base32, as {@link CridId#toBase32()} writes it and
	 * {@link CridId#parseBase32(CharSequence)} reads it: 13 characters, upper case on
	 * output; case, hyphens, I, L and O forgiven on input.
	 */
	BASE32;

	/**
	 * Writes an ID in this form.
	 * @param id the ID
	 * @return its text
	 */
	public String print(CridId id) {
		return switch (this) {
			case DECIMAL -> id.toString();
			case BASE32 -> id.toBase32();
		};
	}

	/**
	 * Reads an ID in this form, and in no other.
	 * @param text the text
	 * @return the ID
	 * @throws IllegalArgumentException quoting the text, and saying what is expected, if
	 * it is not an ID in this form
	 */
	public CridId parse(String text) {
		return switch (this) {
			case DECIMAL -> CridId.parse(text);
			case BASE32 -> CridId.parseBase32(text);
		};
	}

	/**
	 * Returns the name of this form in lower case, as properties and requests spell it:
	 * {@code decimal} or {@code base32}.
	 * @return the name
	 */
	public String lowerCaseName() {
		return name().toLowerCase(Locale.ROOT);
	}

}
