package dev.crid;

import org.jspecify.annotations.Nullable;

/**
 * What the thread running a reservation tells the node, and all it asks of it: whether to
 * start, whether to call the registry (again), what the call returned, and that the run
 * ended. {@link ReservationRunner} knows the node only through it, so the node's parts
 * form no cycle: the supply never calls the runner, it returns the reservations to submit
 * instead.
 */
interface Landing {

	/**
	 * The given thread is about to run a claimed reservation; returns {@code false} when
	 * it must not: the node closed, or gave up on it, meanwhile.
	 */
	boolean starting(Reservation reservation, Thread thread, boolean onCallerThread);

	/**
	 * Whether a reservation may call the registry (again): the node is open and still
	 * waits for it.
	 */
	boolean mayCall(Reservation reservation);

	/**
	 * Takes a reservation's block, in the order answers come; says what became of it, and
	 * which reservation to submit next, if any (a runway's restock).
	 */
	Taken offer(Reservation reservation, Block block, long callNanos);

	/**
	 * Records a failed call and returns whether the reservation asks again: with
	 * {@code mayRetry}, as {@link RetryPolicy#asksAgain} decides. Otherwise the
	 * reservation ends with the failure.
	 */
	boolean failed(Reservation reservation, RuntimeException failure, long callNanos, boolean mayRetry);

	/**
	 * A reservation's run ended, whatever happened to it: it is no longer in flight nor
	 * given up on. Returns whether it had been given up on.
	 */
	boolean ended(Reservation reservation);

	/**
	 * What became of a block, and the reservation to submit next, or {@code null}.
	 *
	 * @param answer what became of the block
	 * @param next the reservation to submit next, or {@code null}
	 */
	record Taken(Answer answer, @Nullable Reservation next) {
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
