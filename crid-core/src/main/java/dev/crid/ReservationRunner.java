package dev.crid;

import java.util.concurrent.RejectedExecutionException;

import org.jspecify.annotations.Nullable;

/**
 * Runs reservations: on the node's own threads or the executor given to the builder
 * ({@link NodeExecutor}), or on the thread of a caller that found one queued and not
 * started. It knows the node only through {@link Landing}, which it tells what happens;
 * the reservations to submit come from the node's parts that make them.
 *
 * <p>
 * Invariants: every reservation it is given ends, on every path, with its result
 * complete: one {@code try/finally} around the whole run sees to it, whatever is thrown
 * (a checked exception a registry throws without declaring it, an {@link Error}, a
 * failure handler that throws). A reservation calls the registry only while the node is
 * open and still waits for it ({@link CallGate}). A background reservation nobody waits
 * for stops retrying after {@link RetryPolicy#BACKGROUND_RETRY_LIMIT}, so a node dropped
 * without {@code close()} during a lasting outage stops calling its registry and leaves
 * no thread.
 */
final class ReservationRunner {

	private final Landing landing;

	private final BlockReserver reserver;

	private final Timing timing;

	private final long timeoutNanos;

	private final NodeExecutor executor;

	private final ReservationReports reports;

	private volatile boolean directExecutorReported;

	ReservationRunner(Landing landing, BlockReserver reserver, NodeExecutor executor, NodeSettings settings,
			ReservationReports reports) {
		this.landing = landing;
		this.reserver = reserver;
		this.executor = executor;
		this.reports = reports;
		this.timing = settings.timing();
		this.timeoutNanos = settings.allocationTimeout().toNanos();
	}

	/**
	 * Hands a reservation, if any, to the executor; one the executor refuses fails at
	 * once, on this thread.
	 */
	void submit(@Nullable Reservation reservation) {
		if (reservation == null) {
			return;
		}
		reservation.submitting(Thread.currentThread());
		try {
			this.executor.execute(() -> {
				if (reservation.claim()) {
					run(reservation, !reservation.submittedBy(Thread.currentThread()));
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
			reservation.submitting(null);
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
			if (!this.landing.starting(reservation, Thread.currentThread(), !background)) {
				return;
			}
			if (submitFailure != null) {
				this.landing.failed(reservation, submitFailure, 0, false);
				return;
			}
			if (!background && !this.executor.isOwn() && reservation.submittedBy(Thread.currentThread())) {
				reportDirectExecutor();
			}
			RetryPolicy.Backoff backoff = new RetryPolicy.Backoff();
			while (attempt(reservation, background) && this.landing.mayCall(reservation)) {
				this.timing.sleep(backoff.next(Long.MAX_VALUE));
			}
		}
		catch (Throwable ex) {
			escaped = ex;
		}
		finally {
			boolean gaveUp = this.landing.ended(reservation);
			reservation.endWith(escaped, this.reserver);
			if (gaveUp && background) {
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
		while (this.landing.mayCall(reservation)) {
			long started = this.timing.nanoTime();
			reservation.attemptStarts(started, this.timeoutNanos);
			Block block;
			try {
				block = this.reserver.reserve(reservation);
			}
			catch (Throwable ex) {
				RuntimeException failure = RetryPolicy.asFailure(ex, this.reserver);
				boolean retry = this.landing.failed(reservation, failure, this.timing.nanoTime() - started, background);
				if (ex instanceof VirtualMachineError error) {
					throw error;
				}
				return retry;
			}
			Landing.Taken taken = this.landing.offer(reservation, block, this.timing.nanoTime() - started);
			submit(taken.next());
			if (taken.answer() != Landing.Answer.WENT_BACK) {
				return false;
			}
			try {
				this.reserver.awaitSecondAfterWentBack(block.timestamp, reservation.deadline());
			}
			catch (RuntimeException ex) {
				return this.landing.failed(reservation, ex, this.timing.nanoTime() - started, background);
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

}
