package dev.crid;

import java.util.Arrays;

/**
 * What a node remembers of the blocks it was given: for each of the last seconds it
 * reserved in, the end of the highest block. A registry that answers with a block below
 * that end has gone back (a restored backup, a failover to a replica that had not caught
 * up) and would hand out numbers twice.
 *
 * <p>
 * Fixed memory: one slot per second modulo {@link #SLOTS}, so it covers any
 * {@value #SLOTS} consecutive seconds (more than an hour); a second that shares a slot
 * with a later one is forgotten.
 */
final class ReservedSeconds {

	/**
	 * How many seconds are remembered: a power of two, so a slot is the second's low
	 * bits.
	 */
	static final int SLOTS = 4096;

	private final long[] seconds = new long[SLOTS];

	private final long[] ends = new long[SLOTS];

	ReservedSeconds() {
		Arrays.fill(this.seconds, -1);
	}

	/**
	 * Records a block and returns whether it lies wholly above every block remembered for
	 * its second.
	 * @param timestamp the block's second
	 * @param start its first sequence number
	 * @param size how many numbers it holds
	 * @return {@code false} if the block overlaps one given before: the registry went
	 * back
	 */
	synchronized boolean record(long timestamp, long start, long size) {
		int slot = (int) (timestamp & (SLOTS - 1));
		long end = start + size;
		if (this.seconds[slot] != timestamp) {
			this.seconds[slot] = timestamp;
			this.ends[slot] = end;
			return true;
		}
		boolean fresh = start >= this.ends[slot];
		this.ends[slot] = Math.max(this.ends[slot], end);
		return fresh;
	}

}
