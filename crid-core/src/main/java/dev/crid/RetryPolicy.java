package dev.crid;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Which failures a node asks its registry again after, and how long it pauses first.
 *
 * <p>
 * Invariant: a failure that asking again cannot mend (a {@link RegistryException} that is
 * not {@link RegistryException#isRetryable() retryable}: a missing table, an evicted
 * second, a refused statement; or a layout the registry was not made for) reaches the
 * caller at once and is never retried, in the background or by a caller. Everything else
 * may pass: callers ask again within their allocation timeout, and the background keeps
 * asking, for {@link #BACKGROUND_RETRY_LIMIT} at most while no caller waits, so that a
 * node nobody calls during a short outage has a block ready soon after the registry
 * returns, and a node nobody calls any more (dropped without {@code close()}) stops
 * calling its registry. Pauses double from {@value #FIRST_DELAY_MILLIS} ms up to
 * {@value #MAX_DELAY_MILLIS} ms.
 */
final class RetryPolicy {

	static final long FIRST_DELAY_MILLIS = 10;

	/** Short enough that IDs flow again soon after the registry comes back. */
	static final long MAX_DELAY_MILLIS = 500;

	/**
	 * How long a background reservation that no caller waits for keeps asking after
	 * failures: a minute. The next caller starts a fresh one.
	 */
	static final Duration BACKGROUND_RETRY_LIMIT = Duration.ofMinutes(1);

	private RetryPolicy() {
	}

	/**
	 * Whether a reservation asks the registry again after a failure that came
	 * {@code retryingNanos} after it was made: as a caller would while one waits for it,
	 * else as the background does.
	 */
	static boolean asksAgain(RuntimeException failure, boolean callerWaits, long retryingNanos) {
		return callerWaits ? callerRetries(failure) : backgroundRetries(failure, retryingNanos);
	}

	/**
	 * Whether a caller asks the registry again after this failure, within its allocation
	 * timeout: a failure that may pass, or a used-up second, whose end the caller may
	 * still live to see.
	 */
	static boolean callerRetries(RuntimeException failure) {
		return (failure instanceof RegistryException registryFailure && registryFailure.isRetryable())
				|| failure instanceof SequenceOverflowException;
	}

	/**
	 * Whether the background asks again after this failure, which came
	 * {@code retryingNanos} after the reservation was made: after anything but what only
	 * a change of configuration, schema or clock can mend, within the limit.
	 */
	static boolean backgroundRetries(RuntimeException failure, long retryingNanos) {
		if (retryingNanos >= BACKGROUND_RETRY_LIMIT.toNanos()) {
			return false;
		}
		if (failure instanceof RegistryException registryFailure) {
			return registryFailure.isRetryable();
		}
		return !(failure instanceof NodeClosedException || failure instanceof LayoutMismatchException);
	}

	/**
	 * Turns whatever a reservation threw into the failure callers see: crid's own
	 * exceptions as they are (the reserver has wrapped what the registry threw, checked
	 * exceptions thrown without being declared included); anything else in a
	 * {@link RegistryException} with it as the cause: a runtime exception from outside
	 * the registry (the clock, say) as lasting, an error or an interrupt as a failure
	 * that may pass.
	 */
	static RuntimeException asFailure(Throwable thrown, Object registry) {
		if (thrown instanceof CridException crid) {
			return crid;
		}
		if (thrown instanceof InterruptedException) {
			return new RegistryException("Interrupted while reserving a block from registry " + registry, thrown);
		}
		return new RegistryException("Reserving a block from registry " + registry + " failed: " + thrown, thrown,
				!(thrown instanceof RuntimeException));
	}

	/**
	 * Pauses that double from the first delay up to the largest. Not thread-safe: one per
	 * waiter.
	 */
	static final class Backoff {

		private long nanos = TimeUnit.MILLISECONDS.toNanos(FIRST_DELAY_MILLIS);

		/** The next pause, at most {@code limit} nanoseconds. */
		long next(long limit) {
			long pause = Math.min(this.nanos, limit);
			this.nanos = Math.min(this.nanos * 2, TimeUnit.MILLISECONDS.toNanos(MAX_DELAY_MILLIS));
			return pause;
		}

	}

}
