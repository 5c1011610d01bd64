package dev.crid;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

import org.jspecify.annotations.Nullable;

/**
 * One reservation of a block: one registry call, or several when failures are retried or
 * a second is used up. Callers wait on its {@link #result}, which completes exactly once,
 * on every path.
 *
 * <p>
 * Its life: queued (submitted, no thread has {@link #claim() claimed} it), running (a
 * thread of the executor, or a caller that found it queued, runs it), ended (its result
 * is complete). It may be <em>abandoned</em> while queued or running, when it is
 * {@link #stuck stuck}: its result then completes with the failure at once, and whatever
 * its registry call returns later is dropped. The fields that are not volatile are
 * guarded by the lock of the {@link BlockSupply} that made it.
 */
final class Reservation implements BlockAllocator.Attempt {

	/**
	 * The most a call may take beyond the allocation timeout before it counts as stuck.
	 */
	private static final long STUCK_GRACE_NANOS = 1_000_000_000L;

	/**
	 * Whether it was asked for before the current block ran out, rather than by a waiting
	 * caller.
	 */
	final boolean prefetch;

	/** How many sequence numbers it reserves. */
	final long size;

	/** When it was made, by the node's {@link Timing}. */
	final long submitted;

	final CompletableFuture<Block> result = new CompletableFuture<>();

	private final AtomicBoolean claimed = new AtomicBoolean();

	/**
	 * The time until which the attempt under way may wait for a used-up second to pass.
	 */
	volatile long deadline;

	/** The used-up timestamp whose end the attempt is waiting for, or -1. */
	volatile long usedUpTimestamp = -1;

	/** When the registry call under way started, or 0 between calls. */
	volatile long callStarted;

	/**
	 * The timestamp in which the registry went back, while the attempt waits for the
	 * next, or -1.
	 */
	volatile long wentBackTimestamp = -1;

	/**
	 * Where the time a block takes to arrive is measured from: when the reservation was
	 * made, for its first attempt (the wait for a thread counts), and when the attempt
	 * started, for a retry (the pauses of an outage do not).
	 */
	volatile long measuredFrom;

	volatile @Nullable RuntimeException lastFailure;

	/**
	 * The thread submitting it, while it does: tells an executor that runs tasks on the
	 * spot.
	 */
	volatile @Nullable Thread submitter;

	/** Callers waiting for its result. */
	int waiters;

	/**
	 * Whether the node gave up on it; written under the supply's lock, read also by the
	 * gate a registry call passes.
	 */
	volatile boolean abandoned;

	/** The thread running it, while one does. */
	@Nullable Thread runner;

	/**
	 * Whether it runs on a caller's thread, which must not be interrupted nor kept
	 * waiting in retries.
	 */
	boolean onCallerThread;

	Reservation(boolean prefetch, long size, long submitted) {
		this.prefetch = prefetch;
		this.size = size;
		this.submitted = submitted;
		this.measuredFrom = submitted;
	}

	/** Takes the reservation to run it; only the first thread to ask gets it. */
	boolean claim() {
		return this.claimed.compareAndSet(false, true);
	}

	boolean claimed() {
		return this.claimed.get();
	}

	/**
	 * When it counts as stuck: when no thread has claimed it within the allocation
	 * timeout of being submitted, or its registry call has not returned within the
	 * timeout and a grace of as long again, a second at most (a call merely slower than
	 * the timeout still delivers its block to the next caller); {@link Long#MAX_VALUE}
	 * between calls.
	 */
	long stuckAt(long timeout) {
		if (!this.claimed.get()) {
			return this.submitted + timeout;
		}
		long call = this.callStarted;
		return (call != 0) ? call + timeout + Math.min(timeout, STUCK_GRACE_NANOS) : Long.MAX_VALUE;
	}

	boolean stuck(long now, long timeout) {
		long at = stuckAt(timeout);
		return at != Long.MAX_VALUE && now - at >= 0;
	}

	/** Says what it was doing when given up on, for the callers' failure. */
	String describeStuck() {
		if (!this.claimed.get()) {
			return ": the prefetch executor did not run the task";
		}
		long wentBack = this.wentBackTimestamp;
		if (wentBack >= 0) {
			return ": the registry went back in timestamp " + wentBack + " (it handed out numbers it had given this "
					+ "node before) and the next second did not come";
		}
		return (this.callStarted != 0) ? ": the registry call did not return" : "";
	}

	@Override
	public long size() {
		return this.size;
	}

	@Override
	public long deadline() {
		return this.deadline;
	}

	@Override
	public void registryCallStarted(long now) {
		this.callStarted = now;
		this.wentBackTimestamp = -1;
	}

	@Override
	public void registryCallEnded() {
		this.callStarted = 0;
	}

	@Override
	public boolean givenUp() {
		return this.abandoned;
	}

	@Override
	public void waitingForNextSecond(long timestamp) {
		this.usedUpTimestamp = timestamp;
	}

	/**
	 * Completes its result, unless it is complete already, at the end of its run: with
	 * what escaped the run, else with a failure saying it ended without a block.
	 */
	void endWith(@Nullable Throwable thrown, Object registry) {
		if (!this.result.isDone()) {
			this.result.completeExceptionally(
					(thrown != null) ? RetryPolicy.asFailure(thrown, registry) : new RegistryException(
							"The block reservation from registry " + registry + " ended without a " + "block"));
		}
	}

	/** What became of a block a reservation's registry call returned. */
	enum Answer {

		/** Ready to be served. */
		TAKEN,

		/** The node closed, or gave up on the reservation: nobody gets it. */
		DROPPED,

		/**
		 * It overlaps a block given before: refused; the reservation moves on to the next
		 * second.
		 */
		WENT_BACK

	}

}
