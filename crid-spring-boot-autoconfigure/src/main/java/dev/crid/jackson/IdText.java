package dev.crid.jackson;

import dev.crid.CridId;
import dev.crid.format.IdFormat;

/**
 * What the JSON messages say about an ID as text in each form.
 */
final class IdText {

	/**
	 * An ID for the examples in messages: the first of the second second after the
	 * default epoch.
	 */
	private static final CridId EXAMPLE = CridId.of(4294967296L);

	private IdText() {
	}

	/** What text in the form is, for "expected ..." in a message. */
	static String expected(IdFormat format) {
		return switch (format) {
			case DECIMAL -> "a decimal number from 0 to " + Long.MAX_VALUE;
			case BASE32 -> "a base32 ID from 0 to 7ZZZZZZZZZZZZ (Crockford's alphabet)";
		};
	}

	/** An ID written in the form. */
	static String example(IdFormat format) {
		return format.print(EXAMPLE);
	}

}
