package dev.crid;

import java.util.concurrent.CompletableFuture;

import org.jspecify.annotations.Nullable;

/**
 * One reservation of a block: one registry call, or several when failures are retried or
 * a second is used up. Callers wait on its {@link #result}, which completes exactly once,
 * on every path.
 *
 * <p>
 * Its states, and the transitions between them:
 *
 * <pre>
 *            claim()             start()              end()
 *  QUEUED ───────────▶ CLAIMED ───────────▶ RUNNING ─────────▶ ENDED
 *                         │                                      ▲
 *                         └──── start() refused: end() ──────────┘
 *
 *  giveUp(), in any state but ENDED, marks it given up on: its result completes with
 *  the failure, it starts no further registry call, and its thread, if it has one, runs
 *  on until its call returns.
 * </pre>
 *
 * A thread of the executor, or a caller that finds it queued, claims it; the node starts
 * it, unless it closed or gave up on it meanwhile, and ends it whatever happened.
 *
 * <p>
 * Invariant: every field that changes is written only by the methods below, under this
 * reservation's own monitor, and is volatile, so any thread reads it without a lock;
 * nothing is called out while the monitor is held, and a thread that holds the node's
 * lock takes the monitor after it, never before, so the two cannot deadlock.
 */
final class Reservation implements BlockReserver.Attempt {

	/** The most a call may take beyond the allocation timeout, then it is stuck. */
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

	private volatile State state = State.QUEUED;

	private volatile boolean givenUp;

	/** The thread running it, while one does. */
	private volatile @Nullable Thread runner;

	/**
	 * Whether it runs on a caller's thread, which must not be interrupted nor kept
	 * waiting in retries.
	 */
	private volatile boolean onCallerThread;

	/** Callers waiting for its result. */
	private volatile int waiters;

	/**
	 * The thread submitting it, while it does: tells an executor that runs tasks on the
	 * spot.
	 */
	private volatile @Nullable Thread submitter;

	/**
	 * The time until which the attempt under way may wait for a used-up second to pass.
	 */
	private volatile long deadline;

	/** The used-up timestamp whose end the attempt is waiting for, or -1. */
	private volatile long usedUpTimestamp = -1;

	/** When the registry call under way started, or 0 between calls. */
	private volatile long callStarted;

	/**
	 * The timestamp in which the registry went back, while the attempt waits for the
	 * next, or -1.
	 */
	private volatile long wentBackTimestamp = -1;

	/**
	 * Where the time a block takes to arrive is measured from: when the reservation was
	 * made, for its first attempt (the wait for a thread counts), and when the attempt
	 * started, for a retry (the pauses of an outage do not).
	 */
	private volatile long measuredFrom;

	private volatile @Nullable RuntimeException lastFailure;

	Reservation(boolean prefetch, long size, long submitted) {
		this.prefetch = prefetch;
		this.size = size;
		this.submitted = submitted;
		this.measuredFrom = submitted;
	}

	/** Takes the reservation to run it; only the first thread to ask gets it. */
	synchronized boolean claim() {
		if (this.state != State.QUEUED) {
			return false;
		}
		this.state = State.CLAIMED;
		return true;
	}

	boolean claimed() {
		return this.state != State.QUEUED;
	}

	/**
	 * Starts the run of a claimed reservation on the given thread; returns {@code false}
	 * when it must not run: it was given up on, or ended, meanwhile.
	 */
	synchronized boolean start(Thread thread, boolean onCallerThread) {
		if (this.state != State.CLAIMED || this.givenUp || this.result.isDone()) {
			return false;
		}
		this.state = State.RUNNING;
		this.runner = thread;
		this.onCallerThread = onCallerThread;
		return true;
	}

	/**
	 * Gives up on it: it starts no registry call from now on. Returns the thread running
	 * it, which holds its call until the call returns, or {@code null} when none does.
	 * The node then completes its result with the failure.
	 */
	synchronized @Nullable Thread giveUp() {
		this.givenUp = true;
		return this.runner;
	}

	/** Whether its thread, while it runs, is a caller's. */
	boolean onCallerThread() {
		return this.onCallerThread;
	}

	/** Ends its run, whatever happened; returns whether it had been given up on. */
	synchronized boolean end() {
		this.state = State.ENDED;
		this.runner = null;
		return this.givenUp;
	}

	/** A caller waits for its result from now on. */
	synchronized void join() {
		this.waiters++;
	}

	/** A caller no longer waits for its result. */
	synchronized void leave() {
		this.waiters--;
	}

	/** Whether a caller waits for its result. */
	boolean awaited() {
		return this.waiters > 0;
	}

	/** Records the thread submitting it, or {@code null} once it has. */
	synchronized void submitting(@Nullable Thread thread) {
		this.submitter = thread;
	}

	/**
	 * Whether the given thread is the one submitting it: an executor ran it on the spot.
	 */
	boolean submittedBy(Thread thread) {
		return this.submitter == thread;
	}

	/** An attempt begins now: it may wait for a used-up second until the deadline. */
	synchronized void attemptStarts(long now, long timeoutNanos) {
		this.deadline = now + timeoutNanos;
		if (this.lastFailure != null) {
			this.measuredFrom = now;
		}
	}

	/** How long the block took to arrive, by the node's {@link Timing} reading now. */
	long arrivalNanos(long now) {
		return now - this.measuredFrom;
	}

	/** Records a failure of its own, or the one it was given up with. */
	synchronized void failed(RuntimeException failure) {
		this.lastFailure = failure;
	}

	@Nullable RuntimeException lastFailure() {
		return this.lastFailure;
	}

	/** The registry went back in the given timestamp; the attempt waits for the next. */
	synchronized void wentBack(long timestamp) {
		this.wentBackTimestamp = timestamp;
	}

	/** The used-up timestamp whose end the attempt is waiting for, or -1. */
	long usedUpTimestamp() {
		return this.usedUpTimestamp;
	}

	/**
	 * When it counts as stuck: when no thread has claimed it within the allocation
	 * timeout of being submitted, or its registry call has not returned within the
	 * timeout and a grace of as long again, a second at most (a call merely slower than
	 * the timeout still delivers its block to the next caller); {@link Long#MAX_VALUE}
	 * between calls.
	 */
	long stuckAt(long timeout) {
		if (!claimed()) {
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
		if (!claimed()) {
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
	public synchronized void registryCallStarted(long now) {
		this.callStarted = now;
		this.wentBackTimestamp = -1;
	}

	@Override
	public synchronized void registryCallEnded() {
		this.callStarted = 0;
	}

	@Override
	public boolean givenUp() {
		return this.givenUp;
	}

	@Override
	public synchronized void waitingForNextSecond(long timestamp) {
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

	/** Where a reservation is in its life; see the class's diagram. */
	private enum State {

		QUEUED, CLAIMED, RUNNING, ENDED

	}

}
