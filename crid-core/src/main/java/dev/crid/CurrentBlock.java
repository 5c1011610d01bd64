package dev.crid;

/**
 * The block a node serves, and the count of the IDs it handed out from the blocks it
 * served before. Installing the next block retires the current one: {@link Pacing} learns
 * from it how fast blocks go, and the {@link RateMeter} samples the count.
 *
 * <p>
 * Not thread-safe: the supply's lock guards every change. The block is volatile, so that
 * the path handing out IDs reads it without the lock. What a retired block still held is
 * a gap for ever.
 */
final class CurrentBlock {

	private final Pacing pacing;

	private final RateMeter rate;

	private volatile Block block = Block.empty();

	private long issuedInRetiredBlocks;

	CurrentBlock(Pacing pacing, RateMeter rate) {
		this.pacing = pacing;
		this.rate = rate;
	}

	/** The block being served; read without the lock. */
	Block get() {
		return this.block;
	}

	/** IDs left in the block, not counting those set aside in stripes. */
	long left() {
		return this.block.left();
	}

	/** IDs handed out so far, counting those set aside in stripes. */
	long issued() {
		return this.issuedInRetiredBlocks + this.block.issued();
	}

	/**
	 * Serves the given block from now on ({@link Timing#nanoTime()}), its trigger set by
	 * what the node has measured.
	 */
	void install(Block next, long now) {
		Block retired = this.block;
		this.issuedInRetiredBlocks += retired.issued();
		this.pacing.installing(retired, next, now);
		this.rate.sample(now, this.issuedInRetiredBlocks);
		this.block = next;
	}

	/** Stops serving the current block, with nothing in its place. */
	void retire() {
		this.issuedInRetiredBlocks += this.block.issued();
		this.block = Block.empty();
	}

}
