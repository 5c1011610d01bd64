package dev.crid;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Decides when a node reserves its next block, and how large, from what it measures: how
 * fast it uses its blocks up, and how long a block takes to arrive once asked for (the
 * registry's answer and the wait for the node's thread), the slowest of the recent
 * arrivals rather than the mean. The next block is asked for when fewer IDs are left than
 * twice what the node hands out meanwhile, and never later than the configured threshold
 * (as a share of the block: a grown block keeps the configured share).
 *
 * <p>
 * A node that reserves ahead and uses up a block in less than two such arrivals (so
 * reserving ahead cannot hide them), or in less than a quarter of a second (so that a
 * busy node makes a few registry calls a second, each a durable commit on the registry's
 * row, however fast it goes), asks for twice as many numbers next time, up to
 * {@value #MAX_GROWTH} times the configured block size and a sixteenth of a second's
 * sequence numbers. One whose block lasted more than {@value #SHRINK_AFTER} arrivals and
 * more than a second halves it again, never below the configured size: a block that
 * doubled after lasting less than a quarter of a second lasts less than half a second, so
 * it is not halved back at once. With prefetching off, blocks keep their configured size.
 *
 * <p>
 * Not thread-safe: the node calls it under its lock.
 */
final class Pacing {

	/** How many of the latest arrivals the tail latency is taken from. */
	private static final int LATENCY_SAMPLES = 32;

	/** The most a block grows, as a multiple of the configured block size. */
	static final long MAX_GROWTH = 64;

	/**
	 * A grown block takes at most this share of a second's sequence numbers: one
	 * sixteenth.
	 */
	static final long SECOND_SHARE = 16;

	/**
	 * Blocks that last less than this many slowest arrivals make a node that reserves
	 * ahead ask for more.
	 */
	private static final long GROW_BELOW = 2;

	/**
	 * Blocks that last longer than this many slowest arrivals make the node ask for
	 * smaller ones.
	 */
	private static final long SHRINK_AFTER = 64;

	/**
	 * Blocks that last less than this make a node that reserves ahead ask for more: at a
	 * steady rate it then makes at most about four registry calls a second.
	 */
	static final long GROW_WITHIN_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

	/**
	 * Blocks are made smaller only once they last longer than this too: four times
	 * {@link #GROW_WITHIN_NANOS}, so that a block grown once is not shrunk back.
	 */
	static final long SHRINK_BEYOND_NANOS = 4 * GROW_WITHIN_NANOS;

	private final long blockSize;

	private final long threshold;

	private final long maxAllocationSize;

	private final long[] latencies = new long[LATENCY_SAMPLES];

	private int nextLatency;

	/** Measures how fast the node hands out IDs, over its latest blocks among others. */
	private final RateMeter meter;

	private long allocationSize;

	private long currentThreshold;

	/**
	 * Creates the pacing of a node.
	 * @param blockSize the configured block size
	 * @param threshold the configured threshold
	 * @param sequencesPerSecond how many sequence numbers one second holds: a grown block
	 * takes at most a sixteenth of them, so one node cannot take a second's numbers from
	 * the others
	 */
	Pacing(long blockSize, long threshold, long sequencesPerSecond) {
		this(blockSize, threshold, sequencesPerSecond, new RateMeter(Duration.ofSeconds(1)));
	}

	Pacing(long blockSize, long threshold, long sequencesPerSecond, RateMeter meter) {
		this.meter = meter;
		this.blockSize = blockSize;
		this.threshold = threshold;
		this.maxAllocationSize = Math.max(blockSize,
				Math.min(sequencesPerSecond / SECOND_SHARE, saturatedMultiply(blockSize, MAX_GROWTH)));
		this.allocationSize = blockSize;
		this.currentThreshold = threshold;
	}

	/**
	 * The pacing of a node with the given settings, which measures its rate with the
	 * meter.
	 */
	static Pacing of(NodeSettings settings, RateMeter meter) {
		return new Pacing(settings.blockSize(), settings.threshold(), sequencesPerSecond(settings.layout()), meter);
	}

	/**
	 * How many sequence numbers one second of the layout holds ({@link Long#MAX_VALUE}
	 * for 63 bits).
	 */
	static long sequencesPerSecond(CridLayout layout) {
		long maxSequence = layout.maxSequence();
		return (maxSequence == Long.MAX_VALUE) ? Long.MAX_VALUE : maxSequence + 1;
	}

	/**
	 * Records how long a block took to arrive, from the moment it was asked for: the
	 * registry's answer and the wait for the thread that makes the call, which a node
	 * must cover as well.
	 */
	void arrived(long nanos) {
		this.latencies[this.nextLatency] = nanos;
		this.nextLatency = (this.nextLatency + 1) % LATENCY_SAMPLES;
	}

	/** The configured block size: the least a node asks for. */
	long blockSize() {
		return this.blockSize;
	}

	/** How many numbers to ask the registry for next. */
	long allocationSize() {
		return this.allocationSize;
	}

	/**
	 * IDs left in a block when the next one is asked for, as last decided; below 1 when
	 * never.
	 */
	long threshold() {
		return this.currentThreshold;
	}

	/**
	 * Learns from the block being retired how fast blocks go, adapts the size of the next
	 * request, and sets the trigger of the block about to be served.
	 */
	void installing(Block retired, Block next, long now) {
		long tail = tailLatency();
		if (retired.size > 0 && retired.installedAt != 0) {
			long lifetime = Math.max(1, now - retired.installedAt);
			this.meter.blockServed(retired.size, lifetime);
			if (this.threshold >= 1 && tail > 0 && lifetime < Math.max(GROW_BELOW * tail, GROW_WITHIN_NANOS)) {
				this.allocationSize = Math.min(this.maxAllocationSize, saturatedMultiply(this.allocationSize, 2));
			}
			else if (tail > 0 && lifetime > Math.max(SHRINK_AFTER * tail, SHRINK_BEYOND_NANOS)) {
				this.allocationSize = Math.max(this.blockSize, this.allocationSize / 2);
			}
		}
		next.installedAt = now;
		if (this.threshold < 1) {
			this.currentThreshold = this.threshold;
			next.trigger = Block.NO_TRIGGER;
			return;
		}
		// The configured threshold is a share of the configured block; a grown block
		// keeps that share.
		long floor = (long) Math.ceil((double) this.threshold / this.blockSize * next.size);
		long measured = (long) Math.ceil(2 * this.meter.blockRate() * tail);
		this.currentThreshold = Math.min(next.size, Math.max(floor, measured));
		next.trigger = next.size - this.currentThreshold;
	}

	private long tailLatency() {
		long max = 0;
		for (long latency : this.latencies) {
			max = Math.max(max, latency);
		}
		return max;
	}

	private static long saturatedMultiply(long value, long factor) {
		return (value > Long.MAX_VALUE / factor) ? Long.MAX_VALUE : value * factor;
	}

}
