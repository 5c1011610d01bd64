package dev.crid;

import java.time.Clock;

import org.jspecify.annotations.Nullable;

/**
 * The blocks of a node: the one being served, the one reserved ahead, and the reservation
 * in flight; and the callers who wait for the next block.
 *
 * <p>
 * A block moves one way: <em>in flight</em> (a {@link Reservation} asks the registry for
 * it), with a runway <em>in stock</em> ({@link Runway}: taken from there a block at a
 * time, without a registry call), <em>ready</em> (reserved ahead, waiting for the current
 * block to run out), <em>current</em> (served by {@link Dispenser}), <em>retired</em>
 * (replaced; what it still held is a gap). The lock guards the blocks ahead
 * ({@link Runway}), the reservations in flight and given up on ({@link InFlight}), the
 * counts, and every change of {@link #current} and {@link #closed}, which are volatile so
 * that the path handing out IDs reads them without it. No lock is held while the registry
 * is called or a caller waits.
 *
 * <p>
 * Callers wait in {@link CallerWaits}, which joins and leaves reservations here;
 * {@link ReservationRunner} runs them and brings their answers here.
 *
 * <p>
 * Invariants: those of {@link InFlight}. A reservation's answer is taken only while it is
 * in flight and the node is open, in the order answers are taken: so blocks are checked
 * against those given before (a registry that went back) in the order the registry gave
 * them, and a late answer to a reservation given up on is dropped unchecked. A caller
 * waits at most its allocation timeout, and gives up on a stuck reservation as soon as it
 * sees it stuck, not at its own deadline.
 */
final class BlockSupply {

	private final Object lock = new Object();

	private final Timing timing;

	private final CridLayout layout;

	private final Clock clock;

	private final NodeStatistics statistics;

	private final Pacing pacing;

	private final Runway runway;

	private final ReservedSeconds reserved = new ReservedSeconds();

	private final ReservationRunner runner;

	private final ReservationReports reports;

	private final InFlight inFlight;

	private final CallGate gate = new CallGate();

	private volatile Block current = Block.empty();

	private volatile boolean closed;

	private long issuedInRetiredBlocks;

	BlockSupply(NodeSettings settings) {
		this.timing = settings.timing();
		this.layout = settings.layout();
		this.clock = settings.clock();
		this.statistics = new NodeStatistics(settings.clock(), settings.timing());
		BlockAllocator allocator = new BlockAllocator(settings, this.statistics, this.gate);
		this.inFlight = new InFlight(this.statistics, settings.allocationTimeout().toNanos(), allocator,
				this::stuckCallsChanged);
		this.pacing = Pacing.of(settings);
		this.runway = Runway.of(settings);
		this.reports = new ReservationReports(allocator, settings.prefetchFailureHandler());
		this.runner = new ReservationRunner(this, allocator, settings, this.reports, this.gate);
	}

	/** Keeps the node's threads beside those held by calls given up on. */
	private void stuckCallsChanged(int stuckCalls) {
		this.runner.stuckCallsChanged(stuckCalls);
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

	/**
	 * Asks for the next block in the background, unless one is ready or on its way; with
	 * a runway, takes it from the stock, and tops the stock up when it runs low.
	 */
	void requestPrefetch() {
		Reservation toSubmit;
		String gaveUp;
		synchronized (this.lock) {
			if (this.closed || (this.runway.hasNext() && !this.runway.enabled())) {
				return;
			}
			gaveUp = this.inFlight.abandonIfStuck(this.timing.nanoTime());
			toSubmit = restock();
		}
		this.reports.gaveUp(gaveUp);
		if (toSubmit != null) {
			this.runner.submit(toSubmit);
		}
	}

	/**
	 * Stops serving a block that expired (see {@link Runway}): the callers who find it
	 * current go on to the next block, or wait for one; what it still held is a gap.
	 */
	void expire(Block block) {
		synchronized (this.lock) {
			if (this.current == block && !this.closed) {
				this.issuedInRetiredBlocks += block.issued();
				this.current = Block.empty();
			}
		}
	}

	/**
	 * The locked step of a caller's wait for a block: installs the block reserved ahead,
	 * or gives up on a stuck reservation and starts one, and returns the reservation in
	 * flight, which the caller now waits for (and {@link #leave leaves} afterwards);
	 * {@code null} when there is nothing to wait for: a block other than
	 * {@code exhausted} is served, or for {@code warmUp} any block with IDs left or
	 * ready.
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
			if (warmUp ? (this.current.left() > 0 || this.runway.ids() > 0) : this.current != exhausted) {
				return null;
			}
			Block next = this.runway.next(this.pacing.allocationSize(), this.timing.nanoTime());
			if (next != null) {
				toSubmit = install(next);
			}
			else {
				if (!warmUp && !wait.stalled) {
					wait.stalled = true;
					this.statistics.stalled();
				}
				gaveUp = this.inFlight.abandonIfStuck(this.timing.nanoTime());
				toAwait = this.inFlight.get();
				if (toAwait == null) {
					toAwait = begin(warmUp, reservationSize());
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

	/**
	 * Runs a reservation on the thread of the caller waiting for it: one attempt, no
	 * retries.
	 */
	void runOnCaller(Reservation reservation) {
		this.runner.runOnCaller(reservation);
	}

	/**
	 * Gives up on the reservation in flight if it is stuck; see
	 * {@link InFlight#abandonIfStuck}.
	 */
	void giveUpIfStuck() {
		String gaveUp;
		synchronized (this.lock) {
			gaveUp = this.inFlight.abandonIfStuck(this.timing.nanoTime());
		}
		this.reports.gaveUp(gaveUp);
	}

	/**
	 * Serves the given block from now on, its trigger set by what the node has measured;
	 * returns the reservation to submit when the block should ask for its successor at
	 * once, else {@code null}.
	 */
	private @Nullable Reservation install(Block block) {
		Block retired = this.current;
		this.issuedInRetiredBlocks += retired.issued();
		long now = this.timing.nanoTime();
		this.pacing.installing(retired, block, now);
		this.runway.sample(now, this.issuedInRetiredBlocks);
		this.current = block;
		this.runway.served();
		if (this.runway.enabled()) {
			return restock();
		}
		return (block.trigger == 0 && this.inFlight.get() == null) ? begin(true, this.pacing.allocationSize()) : null;
	}

	/**
	 * Makes the next block ready from the stock if none is, and returns the reservation
	 * to submit when the node holds too little: no block ahead, or with a runway less
	 * than it needs; else {@code null}.
	 */
	private @Nullable Reservation restock() {
		Block next = this.runway.next(this.pacing.allocationSize(), this.timing.nanoTime());
		if (this.inFlight.get() != null) {
			return null;
		}
		if (!this.runway.enabled()) {
			return (next == null) ? begin(true, this.pacing.allocationSize()) : null;
		}
		long size = refillSize();
		return (size > 0) ? begin(true, size) : null;
	}

	/**
	 * How many IDs a reservation should ask for to top the stock up to the runway, at
	 * least a block; 0 when it need not.
	 */
	private long refillSize() {
		long now = this.timing.nanoTime();
		long issued = this.issuedInRetiredBlocks + this.current.issued();
		this.runway.sample(now, issued);
		return this.runway.refillSize(held(), this.runway.rate(now, issued), this.pacing.allocationSize(),
				currentSecond());
	}

	/** The second it is by the node's clock, or -1 when the clock cannot tell. */
	private long currentSecond() {
		try {
			return this.layout.timestampAt(this.clock.instant());
		}
		catch (RuntimeException ex) {
			return -1; // the next reservation reports it
		}
	}

	/**
	 * The IDs this node holds: left in the current block (not those set aside in
	 * stripes), and ahead.
	 */
	private long held() {
		return this.current.left() + this.runway.ids();
	}

	/**
	 * What a reservation a caller waits for asks for: a block, or with a runway what tops
	 * the stock up.
	 */
	private long reservationSize() {
		return this.runway.enabled() ? Math.max(this.pacing.allocationSize(), refillSize())
				: this.pacing.allocationSize();
	}

	private Reservation begin(boolean prefetch, long size) {
		return this.inFlight.begin(prefetch, size, this.timing.nanoTime());
	}

	/**
	 * Called by the thread about to run a reservation; returns {@code false} when it must
	 * not: the node closed, or gave up on it, meanwhile.
	 */
	boolean starting(Reservation reservation, Thread thread, boolean onCallerThread) {
		synchronized (this.lock) {
			return !this.closed && this.inFlight.start(reservation, thread, onCallerThread);
		}
	}

	/**
	 * Whether a reservation may call the registry (again): the node is open and still
	 * waits for it.
	 */
	boolean mayCall(Reservation reservation) {
		synchronized (this.lock) {
			return !this.closed && !reservation.abandoned;
		}
	}

	/**
	 * Takes a reservation's block, in the order answers come: see the class's invariants.
	 */
	Reservation.Answer offer(Reservation reservation, Block block, long callNanos) {
		Reservation.Answer answer;
		long failuresBefore = 0;
		Reservation toSubmit = null;
		synchronized (this.lock) {
			if (this.closed || reservation.abandoned) {
				answer = Reservation.Answer.DROPPED;
			}
			else if (!this.reserved.record(block.timestamp, block.start, block.size)) {
				this.statistics.registryWentBack();
				reservation.wentBackTimestamp = block.timestamp;
				answer = Reservation.Answer.WENT_BACK;
			}
			else {
				failuresBefore = this.statistics.succeeded(reservation.prefetch, callNanos);
				this.pacing.allocated(this.timing.nanoTime() - reservation.measuredFrom);
				this.inFlight.land();
				this.runway.received(block);
				if (this.runway.enabled()) {
					toSubmit = restock();
				}
				answer = Reservation.Answer.TAKEN;
			}
		}
		if (toSubmit != null) {
			this.runner.submit(toSubmit);
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
	 * Records a failed call and returns whether the reservation asks again: with
	 * {@code mayRetry}, while a caller waits for it and the failure may pass, or in the
	 * background until it gets a block (see {@link RetryPolicy}). Otherwise the
	 * reservation ends with the failure.
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
					: RetryPolicy.backgroundRetries(failure, this.timing.nanoTime() - reservation.submitted));
			if (!retry) {
				this.inFlight.land();
				reservation.result.completeExceptionally(failure);
			}
		}
		this.reports.failed(failure, failuresInRow, retry, reservation.prefetch);
		return retry;
	}

	/**
	 * Ends a reservation, whatever happened to it: it is no longer in flight nor given up
	 * on, and its result is complete, with {@code thrown} if something escaped it.
	 * Returns whether it had been given up on.
	 */
	boolean ended(Reservation reservation, @Nullable Throwable thrown) {
		boolean abandoned;
		synchronized (this.lock) {
			abandoned = this.inFlight.end(reservation);
		}
		reservation.endWith(thrown, registry());
		return abandoned;
	}

	/**
	 * Closes the supply: no block is served or reserved from now on, and callers waiting
	 * are released.
	 * @return whether this call closed it
	 */
	boolean close() {
		Reservation pending;
		synchronized (this.lock) {
			if (this.closed) {
				return false;
			}
			this.closed = true;
			this.gate.close();
			this.issuedInRetiredBlocks += this.current.issued();
			this.current = Block.empty();
			this.runway.clear();
			pending = this.inFlight.land();
		}
		if (pending != null) {
			pending.result.completeExceptionally(new NodeClosedException("The CridNode was closed"));
		}
		return true;
	}

	/**
	 * Once closed, stops the node's own threads and waits, a bounded time, for them and
	 * for the registry calls under way; see {@link ReservationRunner#close}.
	 */
	void stopThreads() {
		this.runner.close();
	}

	/**
	 * A snapshot of the node's state, with what the dispenser holds: its IDs at hand and
	 * those lost.
	 */
	CridStats snapshot(long setAside, long lostAtClose) {
		synchronized (this.lock) {
			Block block = this.current;
			long issued = this.issuedInRetiredBlocks + block.issued();
			double rate = this.runway.rate(this.timing.nanoTime(), issued);
			return this.statistics.snapshot(issued - setAside - lostAtClose, block.left() + setAside,
					this.runway.hasNext(), this.pacing.threshold(), this.pacing.allocationSize(), this.runway.ids(),
					this.runway.duration(held() + setAside, rate), this.inFlight.stuckCalls());
		}
	}

}
