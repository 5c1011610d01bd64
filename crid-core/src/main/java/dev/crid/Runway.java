package dev.crid;

import java.time.Duration;
import java.util.ArrayDeque;

import org.jspecify.annotations.Nullable;

/**
 * The blocks a node has reserved ahead of the one it serves: the next block, ready to be
 * served, and with a runway the stock behind it, which lets the node serve through a
 * registry outage of a stated length.
 *
 * <p>
 * A block of the stock moves on like any other (<em>stock</em> → ready → current →
 * retired): the node takes the next block from the stock without a registry call, and
 * asks the registry for more when what it holds is less than its target and one block:
 * the target is the runway at the rate it measured over the last runway (a second at
 * least, a minute at most: {@link RateMeter#forRunway}), so it is never more than the IDs
 * handed out over that window, stretched to the runway. It asks in calls of at least a
 * quarter of the target and at most a sixteenth of a second's sequence numbers (as for a
 * grown block), so what it holds stays below 1.25 times the target and a call.
 *
 * <p>
 * Two bounds hold whatever the rate does. <em>Share:</em> in any one second, refills take
 * at most a sixteenth of the second's sequence numbers, so a node with a runway cannot
 * starve the other nodes on its registry (with the refill in flight when the second
 * turns, its refills reserve at most an eighth of any second's numbers). <em>Age:</em> a
 * block expires 1.25 times the runway after the registry call that reserved it began: an
 * expired block is never served, so an ID is handed out at most 1.25 times the runway
 * after the second it carries has ended, however slowly the node is used.
 *
 * <p>
 * Not thread-safe: the node calls it under its lock.
 */
final class Runway {

	private final long runwayNanos;

	private final long largestCall;

	private final RateMeter rate;

	private @Nullable Block ready;

	private final ArrayDeque<Block> stock = new ArrayDeque<>();

	private long stockIds;

	/** The second of the latest block the registry reserved for the stock. */
	private long shareSecond = -1;

	/** Sequence numbers the stock's refills reserved in that second. */
	private long shareTaken;

	Runway(Duration runway, long blockSize, long sequencesPerSecond) {
		this.runwayNanos = runway.toNanos();
		this.largestCall = Math.max(blockSize, sequencesPerSecond / Pacing.SECOND_SHARE);
		this.rate = RateMeter.forRunway(runway);
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
	 * How long after its registry call began a block of a node with this runway expires:
	 * 1.25 times the runway; never without one.
	 */
	static long maxAgeNanos(Duration runway) {
		return runway.isZero() ? Long.MAX_VALUE : runway.toNanos() + runway.toNanos() / 4;
	}

	/**
	 * Records how many IDs the node had handed out by {@code now}
	 * ({@link Timing#nanoTime()}).
	 */
	void sample(long now, long issued) {
		this.rate.sample(now, issued);
	}

	/** IDs per nanosecond over the meter's window. */
	double rate(long now, long issued) {
		return this.rate.rate(now, issued);
	}

	/** The IDs the node should hold to serve for the runway at the given rate. */
	long target(double rate) {
		return (long) Math.ceil(rate * this.runwayNanos);
	}

	/**
	 * How many IDs to ask the registry for, given those the node holds, the size it would
	 * ask for without a runway and the second it is; 0 when it holds enough, or the
	 * second's share is taken.
	 */
	long refillSize(long held, double rate, long allocationSize, long second) {
		long target = target(rate);
		// The node looks again a block later: holding a block beyond the target, it never
		// holds less.
		long wanted = target + allocationSize;
		if (!enabled() || held >= wanted) {
			return 0;
		}
		long size = Math.min(this.largestCall, Math.max(allocationSize, Math.max(wanted - held, target / 4)));
		long shareLeft = this.largestCall - ((second == this.shareSecond) ? this.shareTaken : 0);
		return (shareLeft >= size) ? size : (shareLeft >= allocationSize) ? shareLeft : 0;
	}

	/**
	 * The block to serve next: the one ready, else one taken from the stock of up to
	 * {@code size} IDs; {@code null} when there is none. Expired blocks are dropped.
	 */
	@Nullable Block next(long size, long now) {
		if (this.ready != null && this.ready.expired(now)) {
			this.ready = null;
		}
		if (this.ready == null) {
			this.ready = take(size, now);
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
		if (!enabled()) {
			this.ready = block;
			return;
		}
		if (block.timestamp != this.shareSecond) {
			this.shareSecond = block.timestamp;
			this.shareTaken = 0;
		}
		this.shareTaken += block.size;
		add(block);
	}

	/** Puts a block the registry reserved into the stock. */
	void add(Block block) {
		this.stock.addLast(block);
		this.stockIds += block.size;
	}

	/**
	 * Takes up to {@code size} IDs from the stock as a block to serve, dropping the
	 * expired blocks before it; {@code null} when none is left.
	 */
	@Nullable Block take(long size, long now) {
		Block first = this.stock.pollFirst();
		while (first != null && first.expired(now)) {
			this.stockIds -= first.size;
			first = this.stock.pollFirst();
		}
		if (first == null) {
			return null;
		}
		if (first.size > size) {
			this.stock.addFirst(first.part(size, first.size - size));
			first = first.part(0, size);
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
	Duration duration(long held, double rate) {
		return this.rate.lasts(held, rate);
	}

}
