package dev.crid.benchmarks.capacity;

import java.util.SplittableRandom;

/**
 * Picks about one call in {@code every} to time, at random gaps so that the sample cannot
 * fall into step with the node's blocks and slices. Reading the clock costs about 100 ns
 * on the simulation's machine, twenty times a call to {@code nextId()}: timing every call
 * would take more of the cores than the calls themselves. Not thread-safe: one per
 * driver.
 */
final class Sampler {

	private final SplittableRandom random = new SplittableRandom();

	private final int every;

	private int countdown;

	Sampler(int every) {
		this.every = every;
		this.countdown = nextGap();
	}

	boolean timeThisOne() {
		if (--this.countdown > 0) {
			return false;
		}
		this.countdown = nextGap();
		return true;
	}

	private int nextGap() {
		// Gaps uniform in [1, 2 × every - 1]: one call in every, on average.
		return (this.every == 1) ? 1 : 1 + this.random.nextInt(2 * this.every - 1);
	}

}
