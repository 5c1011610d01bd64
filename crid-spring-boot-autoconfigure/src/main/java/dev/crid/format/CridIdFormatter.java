package dev.crid.format;

import java.util.Locale;

import dev.crid.CridId;

import org.springframework.format.Formatter;

/**
 * Binds request values to {@link CridId} ({@code @PathVariable CridId id},
 * {@code @RequestParam CridId id}) and prints a {@code CridId} in links, in one
 * {@link IdFormat}, and reads that form only. A malformed value fails with an
 * {@link InvalidCridIdException}, which Spring wraps in its own binding exception. Add it
 * to Spring MVC or WebFlux with {@code FormatterRegistry.addFormatter}; the
 * auto-configuration does, in the form {@code crid.id-format} chooses.
 */
public final class CridIdFormatter implements Formatter<CridId> {

	private final IdFormat format;

	/**
	 * Creates a formatter.
	 * @param format the form IDs are read and printed in
	 */
	public CridIdFormatter(IdFormat format) {
		this.format = format;
	}

	@Override
	public CridId parse(String text, Locale locale) {
		try {
			return this.format.parse(text);
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidCridIdException(ex);
		}
	}

	@Override
	public String print(CridId id, Locale locale) {
		return this.format.print(id);
	}

	/**
	 * A request value that is not a crid ID; its message is
	 * {@link CridId#parse(String)}'s or {@link CridId#parseBase32(CharSequence)}'s, which
	 * quotes the value and says what is expected.
	 */
	public static final class InvalidCridIdException extends IllegalArgumentException {

		private static final long serialVersionUID = 1L;

		InvalidCridIdException(IllegalArgumentException cause) {
			super(cause.getMessage(), cause);
		}

	}

}
