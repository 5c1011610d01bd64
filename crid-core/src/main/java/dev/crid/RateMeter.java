package dev.crid;

import java.time.Duration;

/**
 * The rate at which a node hands out IDs: the one place it is measured, two ways. Over a
 * window, for the stock and {@link CridStats#runway()}: the IDs handed out since the
 * oldest sample within the window, divided by the whole window. A node younger than its
 * window, or one that was quiet before a burst, is measured over the window all the same,
 * so a burst never counts for more than it is: the rate times the window is at most the
 * IDs handed out within the window.
 *
 * <p>
 * It keeps a sample (the time, and how many IDs the node had handed out) at most every
 * sixty-fourth of the window, in a ring that spans two windows. And over the latest
 * blocks, for {@link Pacing}'s trigger: each retired block's IDs over its lifetime, each
 * block weighing half the one after it. Not thread-safe: the node calls it under its
 * lock.
 */
final class RateMeter {

	private static final int SAMPLES = 128;

	private final long windowNanos;

	private final long sampleEveryNanos;

	private final long[] times = new long[SAMPLES];

	private final long[] issued = new long[SAMPLES];

	private int samples;

	private int newest = -1;

	/** IDs per nanosecond over the latest blocks, each weighing half the one after it. */
	private double blockRate;

	RateMeter(Duration window) {
		this.windowNanos = window.toNanos();
		this.sampleEveryNanos = Math.max(1, this.windowNanos / (SAMPLES / 2));
	}

	/**
	 * The meter of a runway: over the runway itself, within a second and a minute, so
	 * that the stock is what the node handed out over its last runway (for runways of a
	 * second to a minute).
	 */
	static RateMeter forRunway(Duration runway) {
		Duration second = Duration.ofSeconds(1);
		Duration minute = Duration.ofMinutes(1);
		return new RateMeter(
				(runway.compareTo(second) < 0) ? second : (runway.compareTo(minute) > 0) ? minute : runway);
	}

	Duration window() {
		return Duration.ofNanos(this.windowNanos);
	}

	/**
	 * Records how many IDs the node had handed out by {@code now}
	 * ({@link Timing#nanoTime()}).
	 */
	void sample(long now, long issuedNow) {
		if (this.samples > 0 && now - this.times[this.newest] < this.sampleEveryNanos) {
			return;
		}
		this.newest = (this.newest + 1) % SAMPLES;
		this.times[this.newest] = now;
		this.issued[this.newest] = issuedNow;
		this.samples = Math.min(SAMPLES, this.samples + 1);
	}

	/**
	 * IDs per nanosecond: those handed out since the oldest sample within the window,
	 * over the window; 0 before the first sample.
	 */
	double rate(long now, long issuedNow) {
		int oldest = -1;
		for (int i = 0; i < this.samples; i++) {
			int index = Math.floorMod(this.newest - i, SAMPLES);
			if (now - this.times[index] > this.windowNanos) {
				break;
			}
			oldest = index;
		}
		if (oldest < 0) {
			return 0;
		}
		return (double) Math.max(0, issuedNow - this.issued[oldest]) / this.windowNanos;
	}

	/**
	 * Records a block retired after {@code lifetimeNanos} in which {@code size} IDs were
	 * handed out, for the rate over the latest blocks ({@link Pacing}'s trigger).
	 */
	void blockServed(long size, long lifetimeNanos) {
		double rate = (double) size / lifetimeNanos;
		this.blockRate = (this.blockRate == 0) ? rate : (this.blockRate + rate) / 2;
	}

	/** IDs per nanosecond over the latest blocks; 0 before the first block retired. */
	double blockRate() {
		return this.blockRate;
	}

	/** How long {@code held} IDs last at the given rate: at least one ID a window. */
	Duration lasts(long held, double rate) {
		double atLeast = Math.max(rate, 1.0 / this.windowNanos);
		return Duration.ofNanos((long) Math.min(Long.MAX_VALUE, held / atLeast));
	}

}
