package dev.crid;

import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;

import org.jspecify.annotations.Nullable;

/**
 * Callers waiting for a block: a caller whose block ran out, and
 * {@link CridNode#warmUp()}.
 *
 * <p>
 * Invariant: a caller returns within its allocation timeout, measured from its first
 * wait, whatever the registry does, unless it runs a reservation itself (only for
 * registries that answer from memory). It waits for the reservation in flight until that
 * ends, until it is stuck (then it gives up on it and starts afresh at once, keeping what
 * is left of its budget), or until its deadline; after a failure that may pass it pauses
 * ({@link RetryPolicy}) and asks again; any other failure it throws at once.
 */
final class CallerWaits {

	private final BlockSupply supply;

	private final ReservationRunner runner;

	private final Object registry;

	private final Timing timing;

	private final long timeoutNanos;

	private final boolean callerRuns;

	CallerWaits(BlockSupply supply, ReservationRunner runner, NodeSettings settings) {
		this.supply = supply;
		this.runner = runner;
		this.registry = settings.registry();
		this.timing = settings.timing();
		this.timeoutNanos = settings.allocationTimeout().toNanos();
		this.callerRuns = settings.callerRunsReservations();
	}

	/** Starts a caller's wait: its budget runs from now. */
	Wait start() {
		return new Wait(this.timing.nanoTime() + this.timeoutNanos);
	}

	/**
	 * Returns once the current block is no longer the exhausted one: installs the block
	 * reserved ahead, or waits for the reservation in flight, or starts one.
	 * @throws NodeClosedException if the node is closed
	 * @throws RuntimeException the failure that ended the wait
	 */
	void awaitNextBlock(Block exhausted, Wait wait) {
		while (awaitRound(exhausted, wait, false)) {
			// the reservation waited for ended or was stuck: look again
		}
	}

	/**
	 * Reserves the first block unless IDs or a block are at hand, waiting at most the
	 * allocation timeout.
	 */
	void warmUp() {
		Wait wait = start();
		while (awaitRound(null, wait, true)) {
			// as in awaitNextBlock
		}
	}

	/** One round of a caller's wait; returns whether to go round again. */
	private boolean awaitRound(@Nullable Block exhausted, Wait wait, boolean warmUp) {
		Joined joined = this.supply.join(exhausted, wait, warmUp);
		this.runner.submit(joined.toSubmit());
		Reservation reservation = joined.toAwait();
		if (reservation == null) {
			return false;
		}
		try {
			if (this.callerRuns && reservation.claim()) {
				this.runner.runOnCaller(reservation);
			}
			return awaitResult(reservation, wait);
		}
		finally {
			reservation.leave();
		}
	}

	/**
	 * Waits for a reservation until it ends, is stuck, or the caller's deadline comes;
	 * returns whether the caller goes round again, and throws what ends its wait.
	 */
	private boolean awaitResult(Reservation reservation, Wait wait) {
		try {
			long now = this.timing.nanoTime();
			long untilStuck = reservation.stuckAt(this.timeoutNanos) - now;
			// Stuck already: the next round gives up on it and starts afresh.
			long until = Math.min(wait.deadline - now, Math.max(0, untilStuck));
			if (!this.timing.await(reservation.result, until)) {
				if (this.timing.nanoTime() - wait.deadline < 0) {
					return true; // stuck before the caller's deadline: give up on it and
									// start afresh
				}
				this.supply.giveUpIfStuck();
				throw timedOut(reservation, wait.lastFailure);
			}
			if (!reservation.result.isCompletedExceptionally()) {
				return true;
			}
			RuntimeException failure = failureOf(reservation);
			if (!RetryPolicy.callerRetries(failure)) {
				throw failure;
			}
			wait.lastFailure = failure;
			long left = wait.deadline - this.timing.nanoTime();
			if (left <= 0) {
				throw timedOut(reservation, failure);
			}
			this.timing.sleep(wait.backoff.next(left));
			return true;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new RegistryException("Interrupted while waiting for a block from registry " + this.registry, ex,
					false);
		}
	}

	private static RuntimeException failureOf(Reservation reservation) {
		try {
			reservation.result.join();
			throw new IllegalStateException("The reservation did not fail");
		}
		catch (CompletionException ex) {
			Throwable cause = ex.getCause();
			return (cause instanceof RuntimeException failure) ? failure
					: new RegistryException("The block reservation failed: " + cause, cause);
		}
		catch (CancellationException ex) {
			return new RegistryException("The reservation was cancelled", ex);
		}
	}

	/**
	 * The failure of a caller whose deadline came: the reason it waited in vain, down to
	 * the root cause.
	 */
	private RuntimeException timedOut(Reservation reservation, @Nullable RuntimeException callersFailure) {
		long usedUp = reservation.usedUpTimestamp();
		if (usedUp >= 0) {
			return BlockReserver.usedUp(usedUp);
		}
		RuntimeException last = reservation.lastFailure();
		RuntimeException failure = (last != null) ? last : callersFailure;
		String why = (failure != null) ? "; last failure: " + NodeStatistics.describe(failure)
				: reservation.describeStuck();
		return new RegistryException("No block from registry " + this.registry + " within the allocation "
				+ "timeout of " + Duration.ofNanos(this.timeoutNanos) + why, failure);
	}

	/** A caller's wait for the next block: its deadline, and what it met on the way. */
	static final class Wait {

		final long deadline;

		final RetryPolicy.Backoff backoff = new RetryPolicy.Backoff();

		private boolean stalled;

		@Nullable RuntimeException lastFailure;

		Wait(long deadline) {
			this.deadline = deadline;
		}

		/** Whether the caller stalls for the first time: it waits for a block. */
		boolean stalls() {
			boolean first = !this.stalled;
			this.stalled = true;
			return first;
		}

	}

	/**
	 * What a caller's wait found: the reservation it waits for, and the one to submit;
	 * either may be {@code null}.
	 *
	 * @param toAwait the reservation in flight the caller joined, or {@code null} when it
	 * has a block to serve
	 * @param toSubmit the reservation to hand to the executor, or {@code null}
	 */
	record Joined(@Nullable Reservation toAwait, @Nullable Reservation toSubmit) {

		static final Joined NOTHING = new Joined(null, null);

	}

}
