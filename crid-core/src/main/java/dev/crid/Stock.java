package dev.crid;

import org.jspecify.annotations.Nullable;

/**
 * What a node reserves ahead of the block it serves: the policy chosen once, when the
 * node is built. {@link NextBlockOnly} holds the next block and nothing more; a
 * {@link Runway} holds, behind the next block, a stock that lets the node serve through a
 * registry outage of a stated length.
 *
 * <p>
 * Every block reserved ahead moves one way: into the stock (with a runway), then
 * <em>ready</em> (the next block, waiting for the current one to run out), then current.
 * Invariant: the ready block is never an expired one ({@link Block#expired}): it is
 * dropped instead, and so is an expired block of the stock. Not thread-safe: the supply's
 * lock guards it.
 */
abstract class Stock {

	private @Nullable Block ready;

	/**
	 * The policy of a node with the given settings: it asks for blocks of the size
	 * {@code pacing} sets, and with a runway measures the node's rate with {@code rate}.
	 */
	static Stock of(NodeSettings settings, Pacing pacing, RateMeter rate, CurrentBlock current) {
		return settings.runway().isZero() ? new NextBlockOnly(pacing) : Runway.of(settings, pacing, rate, current);
	}

	/**
	 * The block to serve next: the one ready, else one taken from the stock of up to a
	 * block's size ({@link Pacing#allocationSize()}); {@code null} when there is none.
	 * Expired blocks are dropped.
	 */
	final @Nullable Block next(long now) {
		if (this.ready != null && this.ready.expired(now)) {
			this.ready = null;
		}
		if (this.ready == null) {
			this.ready = take(now);
		}
		return this.ready;
	}

	/** Whether a block is ready to be served next. */
	final boolean hasNext() {
		return this.ready != null;
	}

	/** The ready block is now being served. */
	final void served() {
		this.ready = null;
	}

	/** Makes a block the one to serve next. */
	final void ready(Block block) {
		this.ready = block;
	}

	/** IDs reserved ahead: in the ready block and in stock. */
	final long ids() {
		return ((this.ready != null) ? this.ready.size : 0) + stocked();
	}

	/**
	 * Empties the ready block and the stock for good: nobody will get the IDs they held.
	 */
	void clear() {
		this.ready = null;
	}

	/**
	 * Takes up to a block's size from the stock behind the ready block as a block to
	 * serve, dropping the expired blocks before it; {@code null} when none is left.
	 */
	abstract @Nullable Block take(long now);

	/** IDs in the stock behind the ready block. */
	abstract long stocked();

	/** Takes a block the registry reserved. */
	abstract void received(Block block);

	/**
	 * How many IDs to ask the registry for at {@code now} ({@link Timing#nanoTime()}),
	 * with no reservation in flight: 0 when the node holds enough.
	 */
	abstract long wanted(long now);

	/**
	 * Whether the node asks for more as soon as it starts serving the given block, rather
	 * than when the block reaches its trigger.
	 */
	abstract boolean restocksOnInstall(Block installed);

	/**
	 * Whether blocks expire, so that every ID is checked against the clock as it goes.
	 */
	abstract boolean blocksExpire();

}
