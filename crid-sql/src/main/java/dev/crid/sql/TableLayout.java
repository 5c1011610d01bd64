package dev.crid.sql;

import java.time.Instant;

/**
 * The layout a registry table is used with, as its metadata table records it: the epoch
 * and the bit split of the nodes' IDs.
 *
 * @param epochSeconds the epoch, in seconds since 1970
 * @param timestampBits the bits of the timestamp
 * @param sequenceBits the bits of the sequence number
 */
public record TableLayout(long epochSeconds, int timestampBits, int sequenceBits) {

	/**
	 * Returns the second of this layout an instant falls in, or -1 when it falls outside
	 * the layout's range (before the epoch, or past the largest timestamp).
	 * @param instant the instant
	 * @return whole seconds since the epoch, or -1
	 */
	long secondAt(Instant instant) {
		long seconds = instant.getEpochSecond() - this.epochSeconds;
		// Shifts wrap at 64 bits: the limit is computed without a bare shift by the bit
		// count.
		long maxTimestamp = (this.timestampBits >= 63) ? Long.MAX_VALUE : (1L << this.timestampBits) - 1;
		return (seconds < 0 || seconds > maxTimestamp) ? -1 : seconds;
	}

}
