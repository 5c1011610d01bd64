package dev.crid.actuate.endpoint;

import java.util.EnumMap;
import java.util.Map;

import dev.crid.CridId;
import dev.crid.format.IdFormat;

/**
 * Text read as an ID in each form: the ID, or why it is none. Text may be an ID in both
 * forms (digits only, up to 13 of them), and then, but for a single digit, two different
 * ones, so the caller chooses; it never guesses.
 */
final class IdReading {

	private final String text;

	private final Map<IdFormat, CridId> ids = new EnumMap<>(IdFormat.class);

	private final Map<IdFormat, IllegalArgumentException> failures = new EnumMap<>(IdFormat.class);

	private IdReading(String text) {
		this.text = text;
	}

	static IdReading of(String text) {
		IdReading reading = new IdReading(text);
		for (IdFormat format : IdFormat.values()) {
			try {
				reading.ids.put(format, format.parse(text));
			}
			catch (IllegalArgumentException ex) {
				reading.failures.put(format, ex);
			}
		}
		return reading;
	}

	/**
	 * Whether the text is a different ID in another form ({@code 10} is 10 or 32;
	 * {@code 7} is 7 either way).
	 */
	boolean isAmbiguous() {
		return this.ids.values().stream().distinct().count() > 1;
	}

	/**
	 * The form to read the text in: the only one it is valid in, else the preferred one.
	 */
	IdFormat preferring(IdFormat preferred) {
		return (this.ids.size() == 1) ? this.ids.keySet().iterator().next() : preferred;
	}

	/**
	 * The ID the text is in the given form.
	 * @throws IllegalArgumentException quoting the text and saying why it is no ID in
	 * that form, and, when it is an ID in no form at all, in the others too
	 */
	CridId in(IdFormat format) {
		CridId id = this.ids.get(format);
		if (id != null) {
			return id;
		}
		if (this.ids.isEmpty()) {
			StringBuilder reasons = new StringBuilder(
					"Invalid crid ID \"" + this.text + "\": it is neither decimal nor base32.");
			this.failures.values().forEach((failure) -> reasons.append(' ').append(failure.getMessage()).append('.'));
			throw new IllegalArgumentException(reasons.toString());
		}
		IllegalArgumentException failure = this.failures.get(format);
		throw new IllegalArgumentException((failure != null) ? failure.getMessage() : "Invalid crid ID", failure);
	}

}
