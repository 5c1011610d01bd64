package dev.crid;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.function.LongSupplier;

import org.jspecify.annotations.Nullable;

/**
 * The stock of a node with a runway: behind the next block, the IDs it should hand out
 * over its runway at its measured rate, which lets the node serve through a registry
 * outage of that length.
 *
 * <p>
 * A block of the stock moves on like any other (<em>stock</em> → ready → current →
 * retired): the node takes the next block from the stock without a registry call, and
 * asks the registry for more when what it holds is less than its target and one block:
 * the target is the runway at the rate the node measured over the last runway (a second
 * at least, a minute at most: {@link RateMeter#forRunway}), so it is never more than the
 * IDs handed out over that window, stretched to the runway. It asks in calls of at least
 * a quarter of the target and at most a sixteenth of a second's sequence numbers (as for
 * a grown block), so what it holds stays below 1.25 times the target and a call.
 *
 * <p>
 * Two bounds hold whatever the rate does. <em>Share:</em> in any one second, restocks
 * take at most a sixteenth of the second's sequence numbers, so a node with a runway
 * cannot starve the other nodes on its registry (with the restock in flight when the
 * second turns, its restocks reserve at most an eighth of any second's numbers).
 * <em>Age:</em> a block expires 1.25 times the runway after the registry call that
 * reserved it began: an expired block is never served, so an ID is handed out at most
 * 1.25 times the runway after the second it carries has ended, however slowly the node is
 * used.
 *
 * <p>
 * Not thread-safe: the node calls it under its lock.
 */
final class Runway extends Stock {

	private final long runwayNanos;

	private final long largestCall;

	private final Pacing pacing;

	private final RateMeter rate;

	private final CurrentBlock current;

	/** The second it is by the node's clock, or -1 when the clock cannot tell. */
	private final LongSupplier second;

	private final ArrayDeque<Block> stock = new ArrayDeque<>();

	private long stockIds;

	/** The second of the latest block the registry reserved for the stock. */
	private long shareSecond = -1;

	/** Sequence numbers the stock's restocks reserved in that second. */
	private long shareTaken;

	Runway(Duration runway, long sequencesPerSecond, Pacing pacing, RateMeter rate, CurrentBlock current,
			LongSupplier second) {
		this.runwayNanos = runway.toNanos();
		this.largestCall = Math.max(pacing.blockSize(), sequencesPerSecond / Pacing.SECOND_SHARE);
		this.pacing = pacing;
		this.rate = rate;
		this.current = current;
		this.second = second;
	}

	/** The runway of a node with the given settings. */
	static Runway of(NodeSettings settings, Pacing pacing, RateMeter rate, CurrentBlock current) {
		CridLayout layout = settings.layout();
		Clock clock = settings.clock();
		return new Runway(settings.runway(), Pacing.sequencesPerSecond(layout), pacing, rate, current,
				() -> currentSecond(layout, clock));
	}

	private static long currentSecond(CridLayout layout, Clock clock) {
		try {
			return layout.timestampAt(clock.instant());
		}
		catch (RuntimeException ex) {
			return -1; // the next reservation reports it
		}
	}

	/**
	 * How long after its registry call began a block of a node with this runway expires:
	 * 1.25 times the runway; never without one.
	 */
	static long maxAgeNanos(Duration runway) {
		return runway.isZero() ? Long.MAX_VALUE : runway.toNanos() + runway.toNanos() / 4;
	}

	/** The IDs the node should hold to serve for the runway at the given rate. */
	long target(double rate) {
		return (long) Math.ceil(rate * this.runwayNanos);
	}

	@Override
	long wanted(long now) {
		long issued = this.current.issued();
		this.rate.sample(now, issued);
		return restockSize(this.current.left() + ids(), this.rate.rate(now, issued), this.pacing.allocationSize(),
				this.second.getAsLong());
	}

	/**
	 * How many IDs to ask the registry for, given those the node holds, the size it would
	 * ask for without a runway and the second it is; 0 when it holds enough, or the
	 * second's share is taken.
	 */
	long restockSize(long held, double rate, long allocationSize, long second) {
		long target = target(rate);
		// The node looks again a block later: holding a block beyond the target, it never
		// holds less.
		long wanted = target + allocationSize;
		if (held >= wanted) {
			return 0;
		}
		long size = Math.min(this.largestCall, Math.max(allocationSize, Math.max(wanted - held, target / 4)));
		long shareLeft = this.largestCall - ((second == this.shareSecond) ? this.shareTaken : 0);
		return (shareLeft >= size) ? size : (shareLeft >= allocationSize) ? shareLeft : 0;
	}

	@Override
	boolean restocksOnInstall(Block installed) {
		return true;
	}

	@Override
	boolean blocksExpire() {
		return true;
	}

	/**
	 * Puts a block the registry reserved into the stock, counting it in its second's
	 * share.
	 */
	@Override
	void received(Block block) {
		if (block.timestamp != this.shareSecond) {
			this.shareSecond = block.timestamp;
			this.shareTaken = 0;
		}
		this.shareTaken += block.size;
		add(block);
	}

	/** Puts a block into the stock. */
	void add(Block block) {
		this.stock.addLast(block);
		this.stockIds += block.size;
	}

	@Override
	@Nullable Block take(long now) {
		return take(this.pacing.allocationSize(), now);
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

	@Override
	long stocked() {
		return this.stockIds;
	}

	@Override
	void clear() {
		super.clear();
		this.stock.clear();
		this.stockIds = 0;
	}

}
