package dev.crid;

import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.jspecify.annotations.Nullable;

/**
 * Runs reservations: on the node's own threads, on the executor given to the builder, or
 * on the thread of a caller that found one queued and not started.
 *
 * <p>
 * Invariants: every reservation it is given ends, on every path, with its result
 * complete: one {@code try/finally} around the whole run sees to it, whatever is thrown
 * (a checked exception a registry throws without declaring it, an {@link Error}, a
 * failure handler that throws). A reservation calls the registry only while the node is
 * open and still waits for it ({@link CallGate}). The node's own executor runs the
 * reservations from a queue on {@value #OWN_THREADS} threads (the one in flight, and one
 * that ends its run or tells the failure handler), and one more for each call given up on
 * that still holds its thread, so no number of calls that never return keeps it from
 * running a fresh one; its threads end when idle for
 * {@link NodeSettings#idleThreadTimeout()}. A background reservation nobody waits for
 * stops retrying after {@link RetryPolicy#BACKGROUND_RETRY_LIMIT}, so a node dropped
 * without {@code close()} during a lasting outage stops calling its registry and leaves
 * no thread.
 */
final class ReservationRunner {

	private static final AtomicInteger threadNumbers = new AtomicInteger();

	/** Threads of the node's own executor beside those held by calls given up on. */
	static final int OWN_THREADS = 2;

	/** The longest {@link #close()} waits for the node's threads to stop. */
	static final long CLOSE_WAIT_NANOS = TimeUnit.SECONDS.toNanos(1);

	private final BlockSupply supply;

	private final BlockAllocator allocator;

	private final Timing timing;

	private final long timeoutNanos;

	private final Executor executor;

	private final @Nullable ThreadPoolExecutor ownExecutor;

	private final ReservationReports reports;

	private final CallGate gate;

	private volatile boolean directExecutorReported;

	ReservationRunner(BlockSupply supply, BlockAllocator allocator, NodeSettings settings, ReservationReports reports,
			CallGate gate) {
		this.supply = supply;
		this.allocator = allocator;
		this.reports = reports;
		this.gate = gate;
		this.timing = settings.timing();
		this.timeoutNanos = settings.allocationTimeout().toNanos();
		if (settings.prefetchExecutor() != null) {
			this.executor = settings.prefetchExecutor();
			this.ownExecutor = null;
		}
		else {
			this.ownExecutor = new ThreadPoolExecutor(OWN_THREADS, OWN_THREADS, settings.idleThreadTimeout().toNanos(),
					TimeUnit.NANOSECONDS, new LinkedBlockingQueue<>(), (task) -> new NodeThread(task, this));
			this.ownExecutor.allowCoreThreadTimeOut(true);
			this.executor = this.ownExecutor;
		}
	}

	Object registry() {
		return this.allocator;
	}

	/**
	 * Hands a reservation to the executor; one the executor refuses fails at once, on
	 * this thread.
	 */
	void submit(Reservation reservation) {
		reservation.submitter = Thread.currentThread();
		try {
			this.executor.execute(() -> {
				if (reservation.claim()) {
					run(reservation, reservation.submitter != Thread.currentThread());
				}
			});
		}
		catch (Throwable ex) {
			// Whatever the executor throws (a rejection, or an Error such as "unable to
			// create native thread"), the reservation must end: every later caller would
			// wait for it in vain.
			if (reservation.claim()) {
				String what = (ex instanceof RejectedExecutionException) ? "refused the reservation task"
						: "failed to take the reservation task: " + ex;
				run(reservation, new RegistryException("The prefetch executor " + what, ex));
			}
			else if (ex instanceof VirtualMachineError error) {
				throw error; // thrown by the reservation itself, run on this thread,
								// after it ended
			}
		}
		finally {
			reservation.submitter = null;
		}
	}

	/**
	 * Keeps the node's own executor at {@link #OWN_THREADS} threads beside the given
	 * number of calls given up on that still hold theirs; called under the supply's lock
	 * whenever that number changes.
	 */
	void stuckCallsChanged(int stuckCalls) {
		if (this.ownExecutor == null) {
			return;
		}
		int size = OWN_THREADS + stuckCalls;
		if (size > this.ownExecutor.getMaximumPoolSize()) {
			this.ownExecutor.setMaximumPoolSize(size);
			this.ownExecutor.setCorePoolSize(size);
		}
		else {
			this.ownExecutor.setCorePoolSize(size);
			this.ownExecutor.setMaximumPoolSize(size);
		}
	}

	/**
	 * Runs a reservation on the thread of the caller waiting for it: one attempt, no
	 * retries.
	 */
	void runOnCaller(Reservation reservation) {
		run(reservation, false);
	}

	/**
	 * Runs a claimed reservation to its end: asks the registry, and again after failures
	 * the policy retries when {@code background}; on a caller's thread (a direct
	 * executor, a caller that runs it itself) a single attempt.
	 */
	private void run(Reservation reservation, boolean background) {
		run(reservation, background, null);
	}

	private void run(Reservation reservation, RuntimeException submitFailure) {
		run(reservation, false, submitFailure);
	}

	private void run(Reservation reservation, boolean background, @Nullable RuntimeException submitFailure) {
		Throwable escaped = null;
		try {
			if (!this.supply.starting(reservation, Thread.currentThread(), !background)) {
				return;
			}
			if (submitFailure != null) {
				this.supply.failed(reservation, submitFailure, 0, false);
				return;
			}
			if (!background && this.ownExecutor == null && reservation.submitter == Thread.currentThread()) {
				reportDirectExecutor();
			}
			RetryPolicy.Backoff backoff = new RetryPolicy.Backoff();
			while (attempt(reservation, background) && this.supply.mayCall(reservation)) {
				this.timing.sleep(backoff.next(Long.MAX_VALUE));
			}
		}
		catch (Throwable ex) {
			escaped = ex;
		}
		finally {
			if (this.supply.ended(reservation, escaped) && background) {
				// The interrupt that released a call given up on must not reach the
				// executor's next task.
				Thread.interrupted();
			}
		}
		if (escaped instanceof VirtualMachineError error) {
			throw error;
		}
	}

	/**
	 * Makes one round of registry calls for the reservation; returns whether to try again
	 * after a pause.
	 */
	private boolean attempt(Reservation reservation, boolean background) throws InterruptedException {
		while (this.supply.mayCall(reservation)) {
			long started = this.timing.nanoTime();
			reservation.deadline = started + this.timeoutNanos;
			if (reservation.lastFailure != null) {
				reservation.measuredFrom = started;
			}
			Block block;
			try {
				block = this.allocator.allocate(reservation);
			}
			catch (Throwable ex) {
				RuntimeException failure = RetryPolicy.asFailure(ex, this.allocator);
				boolean retry = this.supply.failed(reservation, failure, this.timing.nanoTime() - started, background);
				if (ex instanceof VirtualMachineError error) {
					throw error;
				}
				return retry;
			}
			Reservation.Answer answer = this.supply.offer(reservation, block, this.timing.nanoTime() - started);
			if (answer != Reservation.Answer.WENT_BACK) {
				return false;
			}
			try {
				this.allocator.awaitSecondAfterWentBack(block.timestamp, reservation.deadline);
			}
			catch (RuntimeException ex) {
				return this.supply.failed(reservation, ex, this.timing.nanoTime() - started, background);
			}
		}
		return false;
	}

	private void reportDirectExecutor() {
		if (!this.directExecutorReported) {
			this.directExecutorReported = true;
			this.reports.directExecutor();
		}
	}

	/**
	 * Stops the node's own threads, interrupting them, and waits for the registry calls
	 * under way and for the threads to end, at most the allocation timeout or a second,
	 * whichever is less, together; on one of the node's own threads (a failure handler
	 * that closes the node) it waits for the calls of the others but not for the threads,
	 * its own among them, and leaves itself uninterrupted. An executor given to the
	 * builder is left running. A registry call that ignores the interrupt ends when it
	 * returns, and no call begins after this returns.
	 */
	void close() {
		long deadline = this.timing.nanoTime() + Math.min(this.timeoutNanos, CLOSE_WAIT_NANOS);
		Thread current = Thread.currentThread();
		boolean onOwnThread = current instanceof NodeThread thread && thread.runner == this;
		if (this.ownExecutor != null) {
			boolean interruptedBefore = current.isInterrupted();
			this.ownExecutor.shutdownNow();
			if (onOwnThread && !interruptedBefore) {
				// The interrupt releases registry calls; this thread is in none but runs
				// the
				// handler that closes the node, which must be able to go on (write to a
				// channel, say) after close() returns.
				Thread.interrupted();
			}
		}
		this.gate.awaitCalls(deadline - this.timing.nanoTime());
		if (this.ownExecutor == null || onOwnThread) {
			return; // a thread cannot end while it waits for itself
		}
		try {
			this.ownExecutor.awaitTermination(Math.max(0, deadline - this.timing.nanoTime()), TimeUnit.NANOSECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/** A thread of a node's own executor: a daemon, named for what it does. */
	private static final class NodeThread extends Thread {

		final ReservationRunner runner;

		NodeThread(Runnable task, ReservationRunner runner) {
			super(task, "crid-prefetch-" + threadNumbers.incrementAndGet());
			this.runner = runner;
			setDaemon(true);
		}

	}

}
