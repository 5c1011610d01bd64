package dev.crid;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

import dev.crid.InvalidConfigException.Violation;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * How an ID is put together: the epoch its timestamps count from, and how its 63 usable
 * bits are split between the timestamp (whole seconds since the epoch) and the sequence
 * number.
 *
 * <pre>
 * id = (timestamp &lt;&lt; sequenceBits) | sequence
 * </pre>
 *
 * <p>
 * Immutable and thread-safe. Nodes and parsers that read the same IDs must use equal
 * layouts: a parser with another epoch or split decodes wrong values without noticing.
 */
public final class CridLayout {

	/** The default epoch, 2026-01-01T00:00:00Z. */
	public static final Instant DEFAULT_EPOCH = Instant.parse("2026-01-01T00:00:00Z");

	/** The default number of timestamp bits, 31: about 68 years of seconds. */
	public static final int DEFAULT_TIMESTAMP_BITS = 31;

	/**
	 * The default number of sequence bits, 32: about 4.29 billion IDs per second across
	 * all nodes.
	 */
	public static final int DEFAULT_SEQUENCE_BITS = 32;

	/** Timestamp and sequence bits always add up to this: the sign bit stays zero. */
	public static final int TOTAL_BITS = 63;

	/**
	 * The default layout: {@link #DEFAULT_EPOCH}, 31 timestamp bits and 32 sequence bits.
	 */
	public static final CridLayout DEFAULT = of(DEFAULT_EPOCH, DEFAULT_TIMESTAMP_BITS, DEFAULT_SEQUENCE_BITS);

	private final Instant epoch;

	private final int timestampBits;

	private final int sequenceBits;

	private final long maxTimestamp;

	private final long maxSequence;

	private CridLayout(Instant epoch, int timestampBits, int sequenceBits) {
		this.epoch = epoch;
		this.timestampBits = timestampBits;
		this.sequenceBits = sequenceBits;
		this.maxTimestamp = maxValue(timestampBits);
		this.maxSequence = maxValue(sequenceBits);
	}

	/**
	 * Returns a layout.
	 * @param epoch the instant timestamps count from, a whole second
	 * @param timestampBits bits for the timestamp, in [0, 63]
	 * @param sequenceBits bits for the sequence number, in [0, 63]; both add up to 63
	 * @return the layout
	 * @throws InvalidConfigException naming every violated rule
	 */
	public static CridLayout of(Instant epoch, int timestampBits, int sequenceBits) {
		List<Violation> violations = validate(epoch, timestampBits, sequenceBits);
		if (!violations.isEmpty()) {
			throw new InvalidConfigException(violations);
		}
		return new CridLayout(epoch, timestampBits, sequenceBits);
	}

	static List<Violation> validate(Instant epoch, int timestampBits, int sequenceBits) {
		List<Violation> violations = new ArrayList<>();
		if (epoch == null) {
			violations.add(new Violation("epoch", null, "must be set"));
		}
		else if (!epoch.truncatedTo(ChronoUnit.SECONDS).equals(epoch)) {
			// crid for Go drops the fraction; counting from it instead would shift every
			// timestamp of a registry shared with Go nodes, so neither is done silently.
			violations.add(new Violation("epoch", epoch, "must be a whole second, such as "
					+ epoch.truncatedTo(ChronoUnit.SECONDS) + " (timestamps count whole seconds from it)"));
		}
		if (timestampBits < 0 || timestampBits > TOTAL_BITS) {
			violations.add(new Violation("timestampBits", timestampBits, "must be in [0, " + TOTAL_BITS + "]"));
		}
		if (sequenceBits < 0 || sequenceBits > TOTAL_BITS) {
			violations.add(new Violation("sequenceBits", sequenceBits, "must be in [0, " + TOTAL_BITS + "]"));
		}
		if ((long) timestampBits + sequenceBits != TOTAL_BITS) {
			violations.add(new Violation(Violation.BIT_SPLIT, (long) timestampBits + sequenceBits,
					"must be " + TOTAL_BITS + " (" + timestampBits + " + " + sequenceBits + ")"));
		}
		return violations;
	}

	// Java shifts count modulo 64, so 1L << 63 and 1L << 64 would not give the limits
	// wanted here.
	private static long maxValue(int bits) {
		return (bits >= TOTAL_BITS) ? Long.MAX_VALUE : (1L << bits) - 1;
	}

	/**
	 * Returns the instant timestamps count from.
	 * @return the epoch
	 */
	public Instant epoch() {
		return this.epoch;
	}

	/**
	 * Returns the number of timestamp bits.
	 * @return bits in [0, 63]
	 */
	public int timestampBits() {
		return this.timestampBits;
	}

	/**
	 * Returns the number of sequence bits.
	 * @return bits in [0, 63]
	 */
	public int sequenceBits() {
		return this.sequenceBits;
	}

	/**
	 * Returns the largest timestamp, in seconds since the epoch, that fits the layout.
	 * @return {@code 2^timestampBits - 1}
	 */
	public long maxTimestamp() {
		return this.maxTimestamp;
	}

	/**
	 * Returns the largest sequence number that fits the layout.
	 * @return {@code 2^sequenceBits - 1}
	 */
	public long maxSequence() {
		return this.maxSequence;
	}

	/**
	 * Puts a timestamp and a sequence number together into an ID.
	 * @param timestamp seconds since the epoch, in [0, {@link #maxTimestamp()}]
	 * @param sequence the sequence number, in [0, {@link #maxSequence()}]
	 * @return the ID, never negative
	 * @throws IllegalArgumentException if either part is out of range
	 */
	public long encode(long timestamp, long sequence) {
		if (timestamp < 0 || timestamp > this.maxTimestamp) {
			throw new IllegalArgumentException(
					"timestamp " + timestamp + " is outside [0, " + this.maxTimestamp + "] for " + this);
		}
		if (sequence < 0 || sequence > this.maxSequence) {
			throw new IllegalArgumentException(
					"sequence " + sequence + " is outside [0, " + this.maxSequence + "] for " + this);
		}
		return shiftTimestamp(timestamp) | sequence;
	}

	// With 0 timestamp bits the timestamp is always 0, and a shift by 63 of 0 is still 0.
	long shiftTimestamp(long timestamp) {
		return timestamp << this.sequenceBits;
	}

	/**
	 * Returns the last second the layout can encode: the epoch plus
	 * {@link #maxTimestamp()} seconds, or {@link Instant#MAX} if that lies beyond what an
	 * {@code Instant} can hold.
	 * @return the start of the last second
	 */
	public Instant lastSecond() {
		long seconds = this.epoch.getEpochSecond() + this.maxTimestamp;
		return (seconds < this.epoch.getEpochSecond() || seconds > Instant.MAX.getEpochSecond()) ? Instant.MAX
				: Instant.ofEpochSecond(seconds);
	}

	/**
	 * Returns the timestamp part of an ID.
	 * @param id a non-negative ID
	 * @return seconds since the epoch
	 * @throws IllegalArgumentException if the ID is negative
	 */
	public long timestampOf(long id) {
		requireNonNegative(id);
		return (this.sequenceBits >= TOTAL_BITS) ? 0 : id >>> this.sequenceBits;
	}

	/**
	 * Returns the sequence part of an ID.
	 * @param id a non-negative ID
	 * @return the sequence number
	 * @throws IllegalArgumentException if the ID is negative
	 */
	public long sequenceOf(long id) {
		requireNonNegative(id);
		return id & this.maxSequence;
	}

	private static void requireNonNegative(long id) {
		if (id < 0) {
			throw new IllegalArgumentException("Invalid crid ID " + id + ": IDs are never negative");
		}
	}

	/**
	 * Returns the timestamp of an instant: whole seconds since the epoch, rounded down.
	 * @param instant the instant, usually the clock's
	 * @return seconds since the epoch, in [0, {@link #maxTimestamp()}]
	 * @throws ClockBeforeEpochException if the instant is before the epoch
	 * @throws TimestampOverflowException if the instant is past the last second the
	 * layout can hold
	 */
	public long timestampAt(Instant instant) {
		// The epoch is a whole second, so whole seconds since it are a difference of
		// epoch seconds.
		long seconds = instant.getEpochSecond() - this.epoch.getEpochSecond();
		if (instant.isBefore(this.epoch)) {
			throw new ClockBeforeEpochException("Clock reads " + instant + ", before the epoch " + this.epoch);
		}
		if (seconds > this.maxTimestamp) {
			throw new TimestampOverflowException("Clock reads " + instant + ", " + seconds
					+ " s after the epoch, past the largest timestamp " + this.maxTimestamp + " of " + this);
		}
		return seconds;
	}

	@Override
	public boolean equals(@Nullable Object other) {
		return (this == other) || (other instanceof CridLayout that && this.epoch.equals(that.epoch)
				&& this.timestampBits == that.timestampBits && this.sequenceBits == that.sequenceBits);
	}

	@Override
	public int hashCode() {
		return Objects.hash(this.epoch, this.timestampBits, this.sequenceBits);
	}

	@Override
	public String toString() {
		return "CridLayout[epoch=" + this.epoch + ", timestampBits=" + this.timestampBits + ", sequenceBits="
				+ this.sequenceBits + "]";
	}

}
