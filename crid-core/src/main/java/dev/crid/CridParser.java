package dev.crid;

import java.time.DateTimeException;
import java.time.Instant;
import java.util.Objects;

/**
 * Takes IDs apart into their timestamp and sequence number without a running node. It
 * must use the same layout as the nodes that made the IDs; {@link CridNode#parser()}
 * returns one that does.
 *
 * <p>
 * Immutable and thread-safe.
 */
public final class CridParser {

	private final CridLayout layout;

	private CridParser(CridLayout layout) {
		this.layout = layout;
	}

	/**
	 * Returns a parser for the given layout.
	 * @param layout the layout the IDs were made with
	 * @return the parser
	 */
	public static CridParser of(CridLayout layout) {
		return new CridParser(Objects.requireNonNull(layout, "layout must not be null"));
	}

	/**
	 * Returns the layout this parser reads.
	 * @return the layout
	 */
	public CridLayout layout() {
		return this.layout;
	}

	/**
	 * Takes an ID apart.
	 * @param id the ID
	 * @return its timestamp and sequence number
	 * @throws IllegalArgumentException if the ID is negative, or its timestamp lies
	 * beyond what {@link Instant} can hold (possible only with very wide timestamp
	 * layouts)
	 */
	public ParsedId parse(long id) {
		long timestamp = this.layout.timestampOf(id);
		try {
			return new ParsedId(this.layout.epoch().plusSeconds(timestamp), this.layout.sequenceOf(id));
		}
		catch (DateTimeException | ArithmeticException ex) {
			throw new IllegalArgumentException(
					"crid ID " + id + " has timestamp " + timestamp + " s, beyond the range of Instant", ex);
		}
	}

	/**
	 * Takes an ID apart.
	 * @param id the ID
	 * @return its timestamp and sequence number
	 * @throws IllegalArgumentException if the timestamp lies beyond what {@link Instant}
	 * can hold
	 */
	public ParsedId parse(CridId id) {
		return parse(id.value());
	}

}
