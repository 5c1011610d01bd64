package dev.crid;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

/**
 * The blocks a node has reserved ahead of the one it serves: the next block, ready to be
 * served, and with a runway the stock behind it, which lets the node serve through a
 * registry outage of a stated length; and the rate the stock is measured against.
 *
 * <p>
 * A block of the stock moves on like any other (<em>stock</em> → ready → current →
 * retired): the node takes the next block from the stock without a registry call, and
 * asks the registry for more when what it holds is less than the runway at its measured
 * rate and one block (it looks again one block later): in calls as large as the layout
 * allows (a sixteenth of a second's sequence numbers, as for a grown block), at least a
 * quarter of the target each, so what it holds stays between the target and about 1.25
 * times it and a block. The rate is the IDs handed out over the last minute (since the
 * first call, before a minute has passed), never below the configured block size per
 * second.
 *
 * <p>
 * Not thread-safe: the node calls it under its lock.
 */
final class Runway {

	/** How far back the rate looks. */
	private static final long WINDOW_NANOS = TimeUnit.MINUTES.toNanos(1);

	/** At most one sample a second is kept, so the ring spans the window. */
	private static final long SAMPLE_EVERY_NANOS = TimeUnit.SECONDS.toNanos(1);

	/** Below this span the rate is not measured yet, and the floor stands. */
	private static final long SHORTEST_SPAN_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

	private static final int SAMPLES = 64;

	private final long runwayNanos;

	/**
	 * The slowest rate the node assumes: its configured block size per second, in IDs per
	 * nanosecond.
	 */
	private final double minimumRate;

	private final long largestCall;

	private @Nullable Block ready;

	private final ArrayDeque<Block> stock = new ArrayDeque<>();

	private long stockIds;

	private final long[] sampleTimes = new long[SAMPLES];

	private final long[] sampleIssued = new long[SAMPLES];

	private int samples;

	private int newest = -1;

	Runway(Duration runway, long blockSize, long sequencesPerSecond) {
		this.runwayNanos = runway.toNanos();
		this.minimumRate = (double) blockSize / TimeUnit.SECONDS.toNanos(1);
		this.largestCall = Math.max(blockSize, sequencesPerSecond / Pacing.SECOND_SHARE);
	}

	/** The runway of a node with the given settings. */
	static Runway of(NodeSettings settings) {
		return new Runway(settings.runway(), settings.blockSize(), Pacing.sequencesPerSecond(settings.layout()));
	}

	/** Whether the node keeps a stock at all. */
	boolean enabled() {
		return this.runwayNanos > 0;
	}

	/**
	 * Records how many IDs the node had handed out by {@code now}
	 * ({@link Timing#nanoTime()}).
	 */
	void sample(long now, long issued) {
		if (this.samples > 0 && now - this.sampleTimes[this.newest] < SAMPLE_EVERY_NANOS) {
			return;
		}
		this.newest = (this.newest + 1) % SAMPLES;
		this.sampleTimes[this.newest] = now;
		this.sampleIssued[this.newest] = issued;
		this.samples = Math.min(SAMPLES, this.samples + 1);
	}

	/** IDs per nanosecond over the last minute, never below the floor. */
	double rate(long now, long issued) {
		int oldest = -1;
		for (int i = 0; i < this.samples; i++) {
			int index = Math.floorMod(this.newest - i, SAMPLES);
			if (oldest >= 0 && now - this.sampleTimes[index] > WINDOW_NANOS) {
				break;
			}
			oldest = index;
		}
		if (oldest < 0 || now - this.sampleTimes[oldest] < SHORTEST_SPAN_NANOS) {
			return this.minimumRate;
		}
		double measured = (double) (issued - this.sampleIssued[oldest]) / (now - this.sampleTimes[oldest]);
		return Math.max(this.minimumRate, measured);
	}

	/** The IDs the node should hold to serve for the runway at the given rate. */
	long target(double rate) {
		return (long) Math.ceil(rate * this.runwayNanos);
	}

	/**
	 * How many IDs to ask the registry for, given those the node holds and the size it
	 * would ask for without a runway; 0 when it holds enough.
	 */
	long refillSize(long held, double rate, long allocationSize) {
		long target = target(rate);
		// The node looks again a block later: holding a block beyond the target, it never
		// holds less.
		long wanted = target + allocationSize;
		if (!enabled() || held >= wanted) {
			return 0;
		}
		return Math.min(this.largestCall, Math.max(allocationSize, Math.max(wanted - held, target / 4)));
	}

	/**
	 * The block to serve next: the one ready, else one taken from the stock of up to
	 * {@code size} IDs; {@code null} when there is none.
	 */
	@Nullable Block next(long size) {
		if (this.ready == null) {
			this.ready = take(size);
		}
		return this.ready;
	}

	/** Whether a block is ready to be served next. */
	boolean hasNext() {
		return this.ready != null;
	}

	/** The ready block is now being served. */
	void served() {
		this.ready = null;
	}

	/**
	 * Takes a block the registry reserved: into the stock with a runway, else as the next
	 * block.
	 */
	void received(Block block) {
		if (enabled()) {
			add(block);
		}
		else {
			this.ready = block;
		}
	}

	/** Puts a block the registry reserved into the stock. */
	void add(Block block) {
		this.stock.addLast(block);
		this.stockIds += block.size;
	}

	/**
	 * Takes up to {@code size} IDs from the stock as a block to serve, or {@code null}
	 * when it is empty.
	 */
	@Nullable Block take(long size) {
		Block first = this.stock.pollFirst();
		if (first == null) {
			return null;
		}
		if (first.size > size) {
			this.stock
				.addFirst(new Block(first.timestamp, first.start + size, first.firstId + size, first.size - size));
			first = new Block(first.timestamp, first.start, first.firstId, size);
		}
		this.stockIds -= first.size;
		return first;
	}

	/** IDs reserved ahead: in the ready block and in stock. */
	long ids() {
		return ((this.ready != null) ? this.ready.size : 0) + this.stockIds;
	}

	/**
	 * Empties the ready block and the stock for good: nobody will get the IDs they held.
	 */
	void clear() {
		this.ready = null;
		this.stock.clear();
		this.stockIds = 0;
	}

	/** How long {@code held} IDs last at the given rate. */
	static Duration duration(long held, double rate) {
		return Duration.ofNanos((long) Math.min(Long.MAX_VALUE, held / rate));
	}

}
