package dev.crid;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The system's monotonic clock and real waits, except that a test may move the clock
 * forward at once.
 */
final class SteppedTiming implements Timing {

	private final AtomicLong offset = new AtomicLong();

	/** Moves the clock forward so that it reads {@code nanos} now. */
	void stepTo(long nanos) {
		this.offset.addAndGet(Math.max(0, nanos - nanoTime()));
	}

	/** Moves the clock forward by {@code duration} at once. */
	void advance(Duration duration) {
		this.offset.addAndGet(duration.toNanos());
	}

	@Override
	public long nanoTime() {
		return System.nanoTime() + this.offset.get();
	}

	@Override
	public void sleep(long nanos) throws InterruptedException {
		Timing.SYSTEM.sleep(nanos);
	}

	@Override
	public boolean await(CompletableFuture<?> future, long nanos) throws InterruptedException {
		return Timing.SYSTEM.await(future, nanos);
	}

}
