package dev.crid;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * The blocks of a node: the one being served, the one reserved ahead, and the reservation in flight; and
 * the callers who wait for the next block.
 *
 * <p>A block moves one way: <em>in flight</em> (a {@link Reservation} asks the registry for it),
 * <em>ready</em> (reserved ahead, waiting for the current block to run out), <em>current</em> (served by
 * {@link Dispenser}), <em>retired</em> (replaced; what it still held is a gap). The lock guards
 * {@link #ready}, {@link #inflight}, {@link #givenUp}, the counts, and every change of {@link #current}
 * and {@link #closed}, which are volatile so that the path handing out IDs reads them without it. No lock
 * is held while the registry is called or a caller waits.
 *
 * <p>Callers wait in {@link CallerWaits}, which joins and leaves reservations here.
 *
 * <p>Invariants: at most one reservation is in flight, and at most one more, given up on, may still be in
 * a registry call, so a registry that never returns holds two threads at most. A reservation's answer is
 * taken only while it is in flight and the node is open, in the order answers are taken: so blocks are
 * checked against those given before (a registry that went back) in the order the registry gave them,
 * and a late answer to a reservation given up on is dropped unchecked. A caller waits at most its
 * allocation timeout, and gives up on a stuck reservation as soon as it sees it stuck, not at its own
 * deadline.
 */
final class BlockSupply {

	private final Object lock = new Object();

	private final Timing timing;

	private final NodeStatistics statistics;

	private final Pacing pacing;

	private final ReservedSeconds reserved = new ReservedSeconds();

	private final ReservationRunner runner;

	private final ReservationReports reports;

	private final long timeoutNanos;

	private volatile Block current = Block.empty();

	private volatile boolean closed;

	private @Nullable Block ready;

	private @Nullable Reservation inflight;

	/** A reservation given up on whose registry call has not returned yet, or {@code null}. */
	private @Nullable Reservation givenUp;

	private long issuedInRetiredBlocks;

	BlockSupply(NodeSettings settings, BlockAllocator allocator, NodeStatistics statistics, Timing timing) {
		this.timing = timing;
		this.statistics = statistics;
		this.timeoutNanos = settings.allocationTimeout().toNanos();
		this.pacing = Pacing.of(settings);
		this.reports = new ReservationReports(allocator, settings.prefetchFailureHandler());
		this.runner = new ReservationRunner(this, allocator, settings, this.reports);
	}

	/** The block being served; read without the lock. */
	Block current() {
		return this.current;
	}

	boolean isClosed() {
		return this.closed;
	}

	Object registry() {
		return this.runner.registry();
	}

	/** Asks for the next block in the background, unless one is ready or on its way. */
	void requestPrefetch() {
		Reservation toSubmit;
		String gaveUp;
		synchronized (this.lock) {
			if (this.closed || this.ready != null) {
				return;
			}
			gaveUp = abandonIfStuck(this.timing.nanoTime());
			toSubmit = (this.inflight == null) ? begin(true) : null;
		}
		this.reports.gaveUp(gaveUp);
		if (toSubmit != null) {
			this.runner.submit(toSubmit);
		}
	}

	/**
	 * The locked step of a caller's wait for a block: installs the block reserved ahead, or gives up on a
	 * stuck reservation and starts one, and returns the reservation in flight, which the caller now waits
	 * for (and {@link #leave leaves} afterwards); {@code null} when there is nothing to wait for: a block
	 * other than {@code exhausted} is served, or for {@code warmUp} any block with IDs left or ready.
	 * @throws NodeClosedException if the node is closed
	 */
	@Nullable Reservation join(@Nullable Block exhausted, CallerWaits.Wait wait, boolean warmUp) {
		Reservation toSubmit = null;
		Reservation toAwait = null;
		String gaveUp = null;
		synchronized (this.lock) {
			if (this.closed) {
				throw new NodeClosedException((warmUp ? "warmUp()" : "nextId()") + " was called on a closed CridNode");
			}
			if (warmUp ? (this.ready != null || this.current.left() > 0) : this.current != exhausted) {
				return null;
			}
			if (this.ready != null) {
				toSubmit = install(this.ready);
			}
			else {
				if (!warmUp && !wait.stalled) {
					wait.stalled = true;
					this.statistics.stalled();
				}
				gaveUp = abandonIfStuck(this.timing.nanoTime());
				toAwait = this.inflight;
				if (toAwait == null) {
					toAwait = begin(warmUp);
					toSubmit = toAwait;
				}
				toAwait.waiters++;
			}
		}
		this.reports.gaveUp(gaveUp);
		if (toSubmit != null) {
			this.runner.submit(toSubmit);
		}
		return toAwait;
	}

	/** Ends a caller's wait for a reservation it {@link #join joined}. */
	void leave(Reservation reservation) {
		synchronized (this.lock) {
			reservation.waiters--;
		}
	}

	/** Runs a reservation on the thread of the caller waiting for it: one attempt, no retries. */
	void runOnCaller(Reservation reservation) {
		this.runner.runOnCaller(reservation);
	}

	/** Gives up on the reservation in flight if it is stuck; see {@link #abandonIfStuck}. */
	void giveUpIfStuck() {
		String gaveUp;
		synchronized (this.lock) {
			gaveUp = abandonIfStuck(this.timing.nanoTime());
		}
		this.reports.gaveUp(gaveUp);
	}

	/**
	 * Serves the given block from now on, its trigger set by what the node has measured; returns the
	 * reservation to submit when the block should ask for its successor at once, else {@code null}.
	 */
	private @Nullable Reservation install(Block block) {
		Block retired = this.current;
		this.issuedInRetiredBlocks += retired.issued();
		this.pacing.installing(retired, block, this.timing.nanoTime());
		this.current = block;
		this.ready = null;
		return (block.trigger == 0 && this.inflight == null) ? begin(true) : null;
	}

	/** Marks a reservation as in flight; the caller submits it once it has released the lock. */
	private Reservation begin(boolean prefetch) {
		Reservation reservation = new Reservation(prefetch, this.pacing.allocationSize(), this.timing.nanoTime());
		this.inflight = reservation;
		return reservation;
	}

	/**
	 * Gives up on the reservation in flight if it is stuck and no other given-up call is still out: the
	 * next caller starts afresh, and whatever the stuck call returns, if it ever does, is dropped. Called
	 * with the lock held; returns the warning to log once the lock is released, or {@code null}.
	 */
	private @Nullable String abandonIfStuck(long now) {
		Reservation reservation = this.inflight;
		if (reservation == null || this.givenUp != null || !reservation.stuck(now, this.timeoutNanos)) {
			return null;
		}
		this.inflight = null;
		reservation.abandoned = true;
		if (reservation.runner != null) {
			this.givenUp = reservation;
			if (!reservation.onCallerThread) {
				reservation.runner.interrupt();
			}
		}
		RegistryException failure = new RegistryException("Gave up on a block reservation from registry "
				+ registry() + reservation.describeStuck() + " within the allocation timeout of "
				+ Duration.ofNanos(this.timeoutNanos));
		long failures = this.statistics.failed(reservation.prefetch, now - reservation.submitted, failure);
		reservation.lastFailure = failure;
		reservation.result.completeExceptionally(failure);
		return failure.getMessage() + " (" + failures + " failed calls in a row); the next reservation starts afresh";
	}

	/**
	 * Called by the thread about to run a reservation; returns {@code false} when it must not: the node
	 * closed, or gave up on it, meanwhile.
	 */
	boolean starting(Reservation reservation, Thread thread, boolean onCallerThread) {
		synchronized (this.lock) {
			if (this.closed || reservation.abandoned || reservation.result.isDone()) {
				return false;
			}
			reservation.runner = thread;
			reservation.onCallerThread = onCallerThread;
			return true;
		}
	}

	/** Whether a reservation may call the registry (again): the node is open and still waits for it. */
	boolean mayCall(Reservation reservation) {
		synchronized (this.lock) {
			return !this.closed && !reservation.abandoned;
		}
	}

	/** What became of a block a reservation's registry call returned. */
	enum Answer {

		/** Ready to be served. */
		TAKEN,

		/** The node closed, or gave up on the reservation: nobody gets it. */
		DROPPED,

		/** It overlaps a block given before: refused; the reservation moves on to the next second. */
		WENT_BACK

	}

	/** Takes a reservation's block, in the order answers come: see the class's invariants. */
	Answer offer(Reservation reservation, Block block, long callNanos) {
		Answer answer;
		long failuresBefore = 0;
		synchronized (this.lock) {
			if (this.closed || reservation.abandoned) {
				answer = Answer.DROPPED;
			}
			else if (!this.reserved.record(block.timestamp, block.start, block.size)) {
				this.statistics.registryWentBack();
				reservation.wentBackTimestamp = block.timestamp;
				answer = Answer.WENT_BACK;
			}
			else {
				failuresBefore = this.statistics.succeeded(reservation.prefetch, callNanos);
				this.pacing.allocated(this.timing.nanoTime() - reservation.measuredFrom);
				this.inflight = null;
				this.ready = block;
				answer = Answer.TAKEN;
			}
		}
		switch (answer) {
			case TAKEN -> {
				reservation.result.complete(block);
				this.reports.taken(failuresBefore);
			}
			case DROPPED -> this.reports.dropped(block);
			case WENT_BACK -> this.reports.wentBack(block);
		}
		return answer;
	}

	/**
	 * Records a failed call and returns whether the reservation asks again: with {@code mayRetry}, while a
	 * caller waits for it and the failure may pass, or in the background until it gets a block (see
	 * {@link RetryPolicy}). Otherwise the reservation ends with the failure.
	 */
	boolean failed(Reservation reservation, RuntimeException failure, long callNanos, boolean mayRetry) {
		long failuresInRow;
		boolean retry;
		synchronized (this.lock) {
			if (this.closed || reservation.abandoned) {
				this.reports.dropped(failure);
				return false;
			}
			failuresInRow = this.statistics.failed(reservation.prefetch, callNanos, failure);
			reservation.lastFailure = failure;
			retry = mayRetry && ((reservation.waiters > 0) ? RetryPolicy.callerRetries(failure)
					: RetryPolicy.backgroundRetries(failure));
			if (!retry) {
				this.inflight = null;
				reservation.result.completeExceptionally(failure);
			}
		}
		this.reports.failed(failure, failuresInRow, retry, reservation.prefetch);
		return retry;
	}

	/**
	 * Ends a reservation, whatever happened to it: it is no longer in flight nor given up on, and its result
	 * is complete, with {@code thrown} if something escaped it. Returns whether it had been given up on.
	 */
	boolean ended(Reservation reservation, @Nullable Throwable thrown) {
		boolean abandoned;
		synchronized (this.lock) {
			abandoned = reservation.abandoned;
			reservation.runner = null;
			if (this.inflight == reservation) {
				this.inflight = null;
			}
			if (this.givenUp == reservation) {
				this.givenUp = null;
			}
		}
		if (!reservation.result.isDone()) {
			reservation.result.completeExceptionally((thrown != null) ? RetryPolicy.asFailure(thrown, registry())
					: new RegistryException("The block reservation from registry " + registry() + " ended without a "
							+ "block"));
		}
		return abandoned;
	}

	/**
	 * Closes the supply: no block is served or reserved from now on, and callers waiting are released.
	 * @return whether this call closed it
	 */
	boolean close() {
		Reservation pending;
		synchronized (this.lock) {
			if (this.closed) {
				return false;
			}
			this.closed = true;
			this.issuedInRetiredBlocks += this.current.issued();
			this.current = Block.empty();
			this.ready = null;
			pending = this.inflight;
			this.inflight = null;
		}
		if (pending != null) {
			pending.result.completeExceptionally(new NodeClosedException("The CridNode was closed"));
		}
		return true;
	}

	/** Stops the node's own threads, once closed. */
	void stopThreads() {
		this.runner.close();
	}

	/** A snapshot of the node's state, with what the dispenser holds: its IDs at hand and those lost. */
	CridStats snapshot(long setAside, long lostAtClose) {
		synchronized (this.lock) {
			Block block = this.current;
			long issued = this.issuedInRetiredBlocks + block.issued() - setAside - lostAtClose;
			return this.statistics.snapshot(issued, block.left() + setAside, this.ready != null,
					this.pacing.threshold(), this.pacing.allocationSize());
		}
	}

}
