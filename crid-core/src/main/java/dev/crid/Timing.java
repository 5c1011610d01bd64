package dev.crid;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Where a node reads the monotonic clock and waits for time to pass or for a reservation
 * to end. Every wait of the node's slow paths goes through it, so a test can drive time
 * itself and choose which thread runs when; the path that hands out IDs never uses it.
 */
interface Timing {

	/** The system's monotonic clock, and waits that take real time. */
	Timing SYSTEM = new Timing() {

		@Override
		public long nanoTime() {
			return System.nanoTime();
		}

		@Override
		public void sleep(long nanos) throws InterruptedException {
			TimeUnit.NANOSECONDS.sleep(nanos);
		}

		@Override
		public boolean await(CompletableFuture<?> future, long nanos) throws InterruptedException {
			try {
				future.get(Math.max(nanos, 0), TimeUnit.NANOSECONDS);
				return true;
			}
			catch (TimeoutException ex) {
				return false;
			}
			catch (ExecutionException | CancellationException ex) {
				return true;
			}
		}

	};

	/** The monotonic clock, in nanoseconds, as {@link System#nanoTime()}. */
	long nanoTime();

	/** Waits for the given time to pass. */
	void sleep(long nanos) throws InterruptedException;

	/**
	 * Waits at most the given time for the future to complete, however it does; returns
	 * whether it did.
	 */
	boolean await(CompletableFuture<?> future, long nanos) throws InterruptedException;

}
