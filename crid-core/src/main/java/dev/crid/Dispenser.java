package dev.crid;

import java.util.concurrent.atomic.LongAdder;

import org.jspecify.annotations.Nullable;

/**
 * Hands out IDs from the current block: to each stripe of threads a slice at a time, and
 * to a bulk request all it asks for at once. Asks the {@link BlockSupply} for the next
 * block when a block reaches its trigger, and waits for it ({@link CallerWaits}) when a
 * block runs out.
 *
 * <p>
 * Invariants: every offset of a block is taken once, by one atomic add on the block's
 * counter (a slice or a bulk request takes many at once), so no ID is handed out twice. A
 * stripe's slot changes only by compare-and-set, and closing swaps {@link Slice#CLOSED}
 * into every slot: a slice is published before the node closes (and is swept away by it)
 * or not at all, so no call that begins after {@code close()} is served from a slice.
 * Offsets set aside but never handed out are gaps, counted in {@link #lostAtClose}.
 */
final class Dispenser {

	/**
	 * The most IDs a stripe sets aside at once: a refill in this many calls stays out of
	 * the 99.9th percentile.
	 */
	private static final long MAX_SLICE_SIZE = 4_096;

	private final BlockSupply supply;

	private final CallerWaits waits;

	private final ReservationRunner runner;

	private final Stripes stripes = new Stripes();

	private final long sliceSize;

	/** Offsets set aside in the stripes when the node closed: no caller will get them. */
	private final LongAdder lostAtClose = new LongAdder();

	/**
	 * The node's timing, read for every ID when blocks expire
	 * ({@link Stock#blocksExpire}); else {@code null}.
	 */
	private final @Nullable Timing expiring;

	Dispenser(BlockSupply supply, CallerWaits waits, ReservationRunner runner, NodeSettings settings) {
		this.supply = supply;
		this.waits = waits;
		this.runner = runner;
		boolean expire = supply.blocksExpire();
		this.expiring = expire ? settings.timing() : null;
		// Small next to a block, so what stripes hold when the node stops is a small gap.
		// A node whose blocks expire sets nothing aside: each ID is checked as it goes.
		this.sliceSize = expire ? 1
				: Math.max(1, Math.min(MAX_SLICE_SIZE, settings.blockSize() / (2L * this.stripes.count())));
	}

	/** The stripes' slots, for the node's fast path. */
	Slice[] slots() {
		return this.stripes.slots();
	}

	/**
	 * Takes a slice of the current block for the caller's stripe, hands out its first ID
	 * and sets the rest aside for the stripe's threads; waits for the next block when the
	 * current one is exhausted.
	 * @param slot the caller's stripe
	 * @param usedUp the slice the caller found used up in it, or {@code null}
	 */
	long refill(int slot, @Nullable Slice usedUp) {
		boolean refilling = claim(slot, usedUp);
		try {
			CallerWaits.Wait wait = null;
			while (true) {
				Block block = current();
				long wanted = refilling ? this.sliceSize : 1;
				long start = block.take(wanted);
				if (start < block.size) {
					long end = Math.min(start + wanted, block.size);
					if (refilling && end - start > 1) {
						// The stripe gets its slice before this caller may ask for the
						// next block, which can hold it a while: the stripe's other
						// threads go on meanwhile.
						Slice slice = new Slice(block, start + 1, end);
						refilling = false;
						if (!this.stripes.replace(slot, Slice.REFILLING, slice)) {
							this.lostAtClose.add(slice.unused()); // the node closed
																	// meanwhile
						}
					}
					reachedTrigger(block, start, end);
					return block.firstId + start;
				}
				if (refilling) {
					// A caller that waits gives its stripe back: once parked, it may come
					// back long after the next block is in (a virtual thread queues
					// behind all the others), and the stripe's other threads would take
					// single IDs meanwhile.
					refilling = false;
					release(slot);
				}
				if (wait == null) {
					wait = this.waits.start();
				}
				this.waits.awaitNextBlock(block, wait);
				refilling = claim(slot, null);
			}
		}
		finally {
			if (refilling) {
				release(slot);
			}
		}
	}

	/**
	 * Marks the stripe as being refilled by the caller, if it still holds what the caller
	 * found there; returns whether it does. One thread of a stripe refills it; the others
	 * meanwhile take single IDs, so no slice is set aside in vain.
	 */
	private boolean claim(int slot, @Nullable Slice found) {
		return this.sliceSize > 1 && found != Slice.REFILLING && found != Slice.CLOSED
				&& this.stripes.replace(slot, found, Slice.REFILLING);
	}

	/** Leaves the stripe empty for its next caller, unless the node closed meanwhile. */
	private void release(int slot) {
		this.stripes.replace(slot, Slice.REFILLING, null);
	}

	/** Takes {@code count} IDs a block at a time: one atomic step per block touched. */
	long[] nextIds(int count) {
		if (count == 0 && this.supply.isClosed()) {
			throw new NodeClosedException("nextIds() was called on a closed CridNode");
		}
		long[] ids = new long[count];
		int filled = 0;
		CallerWaits.Wait wait = null;
		while (filled < count) {
			Block block = current();
			long start = block.take(count - filled);
			if (start < block.size) {
				long end = Math.min(start + (count - filled), block.size);
				reachedTrigger(block, start, end);
				for (long offset = start; offset < end; offset++) {
					ids[filled++] = block.firstId + offset;
				}
				wait = null;
				continue;
			}
			if (wait == null) {
				wait = this.waits.start();
			}
			this.waits.awaitNextBlock(block, wait);
		}
		return ids;
	}

	/**
	 * The block being served; a node whose blocks expire first retires the current one if
	 * it has.
	 */
	private Block current() {
		Block block = this.supply.current();
		if (this.expiring != null && block.expired(this.expiring.nanoTime())) {
			this.supply.expire(block);
			block = this.supply.current();
		}
		return block;
	}

	/**
	 * Asks for the next block when offsets {@code [start, end)} of a block include its
	 * trigger.
	 */
	private void reachedTrigger(Block block, long start, long end) {
		if (block.trigger >= start && block.trigger < end) {
			this.runner.submit(this.supply.requestPrefetch());
		}
	}

	/** Empties every stripe for good, counting what they still held as lost. */
	void close() {
		this.lostAtClose.add(this.stripes.close());
	}

	/** A snapshot of the node's state. */
	CridStats stats() {
		return this.supply.snapshot(this.stripes.unused(), this.lostAtClose.sum());
	}

}
