package dev.crid;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The reservation a node has in flight, and those it gave up on whose registry calls have
 * not returned yet: what bounds a node's registry calls, and gives up on a stuck one.
 *
 * <p>
 * Not thread-safe: the lock of the {@link BlockSupply} that owns it guards it; each
 * reservation guards its own state ({@link Reservation}). Invariants: at most one
 * reservation is in flight; a stuck one is given up on whatever else is stuck, so no
 * number of calls that never return keeps the node from starting afresh (each of them
 * holds its thread until it returns, and counts in {@link #stuckCalls()}). A reservation
 * given up on is no longer in flight, its result completes with the failure at once, its
 * thread is interrupted (unless it is a caller's), and it starts no registry call after
 * that.
 */
final class InFlight {

	private final NodeStatistics statistics;

	private final long timeoutNanos;

	private final Object registry;

	/** Told how many calls given up on are still out, whenever that changes. */
	private final NodeExecutor executor;

	private @Nullable Reservation inflight;

	/** Reservations given up on whose run has not ended yet. */
	private final List<Reservation> givenUp = new ArrayList<>();

	InFlight(NodeStatistics statistics, long timeoutNanos, Object registry, NodeExecutor executor) {
		this.statistics = statistics;
		this.timeoutNanos = timeoutNanos;
		this.registry = registry;
		this.executor = executor;
	}

	/** The reservation in flight, or {@code null}. */
	@Nullable Reservation get() {
		return this.inflight;
	}

	/**
	 * Makes a reservation the one in flight; there is none. Its maker submits it once the
	 * lock is released.
	 */
	Reservation begin(boolean prefetch, long size, long now) {
		Reservation reservation = new Reservation(prefetch, size, now);
		this.inflight = reservation;
		return reservation;
	}

	/**
	 * Ends the flight of the reservation in flight, taken or failed for good; returns it,
	 * or {@code null}.
	 */
	@Nullable Reservation land() {
		Reservation reservation = this.inflight;
		this.inflight = null;
		return reservation;
	}

	/**
	 * Gives up on the reservation in flight if it is stuck: the next caller starts
	 * afresh, and whatever the stuck call returns, if it ever does, is dropped. Returns
	 * the warning to log once the lock is released, or {@code null}.
	 */
	@Nullable String abandonIfStuck(long now) {
		Reservation reservation = this.inflight;
		if (reservation == null || !reservation.stuck(now, this.timeoutNanos)) {
			return null;
		}
		this.inflight = null;
		Thread runner = reservation.giveUp();
		if (runner != null) {
			this.givenUp.add(reservation);
			this.executor.stuckCallsChanged(this.givenUp.size());
			if (!reservation.onCallerThread()) {
				runner.interrupt();
			}
		}
		RegistryException failure = new RegistryException(
				"Gave up on a block reservation from registry " + this.registry + reservation.describeStuck()
						+ " within the allocation timeout of " + Duration.ofNanos(this.timeoutNanos));
		long failures = this.statistics.failed(reservation.prefetch, now - reservation.submitted, failure);
		reservation.failed(failure);
		reservation.result.completeExceptionally(failure);
		return failure.getMessage() + " (" + failures + " failed calls in a row); the next reservation starts afresh";
	}

	/**
	 * Forgets a reservation whose run ended, in flight or given up on; returns whether it
	 * was given up on.
	 */
	boolean end(Reservation reservation) {
		boolean gaveUp = reservation.end();
		if (this.inflight == reservation) {
			this.inflight = null;
		}
		if (this.givenUp.remove(reservation)) {
			this.executor.stuckCallsChanged(this.givenUp.size());
		}
		return gaveUp;
	}

	/**
	 * Registry calls of reservations given up on that have not returned yet: each holds a
	 * thread.
	 */
	int stuckCalls() {
		return this.givenUp.size();
	}

}
