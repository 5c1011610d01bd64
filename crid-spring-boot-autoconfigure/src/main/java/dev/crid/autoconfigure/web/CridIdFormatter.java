package dev.crid.autoconfigure.web;

import java.util.Locale;

import dev.crid.CridId;
import dev.crid.autoconfigure.CridProperties.IdFormat;

import org.springframework.format.Formatter;

/**
 * Binds request values to {@link CridId} ({@code @PathVariable CridId id},
 * {@code @RequestParam CridId id}) and prints a {@code CridId} in links, in the form
 * {@code crid.id-format} chooses, and reads that form only. A malformed value fails with
 * an {@link InvalidCridIdException}, which Spring wraps in its own binding exception; the
 * web problem details find it there and answer 400 with its reason.
 */
final class CridIdFormatter implements Formatter<CridId> {

	private final IdFormat format;

	CridIdFormatter(IdFormat format) {
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
	static final class InvalidCridIdException extends IllegalArgumentException {

		private static final long serialVersionUID = 1L;

		InvalidCridIdException(IllegalArgumentException cause) {
			super(cause.getMessage(), cause);
		}

	}

}
