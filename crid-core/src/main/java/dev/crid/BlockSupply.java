package dev.crid;

import org.jspecify.annotations.Nullable;

/**
 * The blocks of a node: the one being served, those reserved ahead, and the reservation
 * in flight.
 *
 * <p>
 * A block moves one way: <em>in flight</em> (a {@link Reservation} asks the registry for
 * it), <em>ahead</em> (in the {@link Stock}: the next block, or with a runway a stock of
 * them), <em>current</em> (served by {@link Dispenser}), <em>retired</em> (replaced; what
 * it still held is a gap). The lock guards the stock, the reservations in flight and
 * given up on ({@link InFlight}), and every change of the {@link CurrentBlock} and of
 * whether the node is closed ({@link CallGate#isClosed()}), which the path handing out
 * IDs reads without it. No lock is held while the registry is called or a caller waits.
 *
 * <p>
 * It calls no part that calls it: callers are handed the reservation to submit, and
 * {@link ReservationRunner} brings the answers through {@link Landing}. Invariants: those
 * of {@link InFlight}. A reservation's answer is taken only while it is in flight and the
 * node is open, in the order answers are taken: so blocks are checked against those given
 * before (a registry that went back) in the order the registry gave them, and a late
 * answer to a reservation given up on is dropped unchecked.
 */
final class BlockSupply implements Landing {

	private final Object lock = new Object();

	private final Timing timing;

	private final NodeStatistics statistics;

	private final Pacing pacing;

	private final RateMeter rate;

	/** What the node reserves ahead: the next block only, or a runway. */
	private final Stock stock;

	private final ReservedSeconds reserved = new ReservedSeconds();

	private final ReservationReports reports;

	private final InFlight inFlight;

	private final CallGate gate;

	private final CurrentBlock current;

	BlockSupply(NodeSettings settings, NodeStatistics statistics, InFlight inFlight, ReservationReports reports,
			CallGate gate) {
		this.timing = settings.timing();
		this.statistics = statistics;
		this.inFlight = inFlight;
		this.reports = reports;
		this.gate = gate;
		this.rate = RateMeter.forRunway(settings.runway());
		this.pacing = Pacing.of(settings, this.rate);
		this.current = new CurrentBlock(this.pacing, this.rate);
		this.stock = Stock.of(settings, this.pacing, this.rate, this.current);
	}

	/** The block being served; read without the lock. */
	Block current() {
		return this.current.get();
	}

	boolean isClosed() {
		return this.gate.isClosed();
	}

	/**
	 * Whether blocks expire, so that every ID is checked against the clock as it goes.
	 */
	boolean blocksExpire() {
		return this.stock.blocksExpire();
	}

	/**
	 * Asks for the next block in the background, unless one is ready or on its way; with
	 * a runway, takes it from the stock, and tops the stock up when it runs low. Returns
	 * the reservation to submit, or {@code null}.
	 */
	@Nullable Reservation requestPrefetch() {
		Reservation toSubmit;
		String gaveUp;
		synchronized (this.lock) {
			if (this.gate.isClosed()) {
				return null;
			}
			gaveUp = this.inFlight.abandonIfStuck(this.timing.nanoTime());
			toSubmit = restock();
		}
		this.reports.gaveUp(gaveUp);
		return toSubmit;
	}

	/**
	 * Stops serving a block that expired (see {@link Runway}): the callers who find it
	 * current go on to the next block, or wait for one; what it still held is a gap.
	 */
	void expire(Block block) {
		synchronized (this.lock) {
			if (this.current.get() == block && !this.gate.isClosed()) {
				this.current.retire();
			}
		}
	}

	/**
	 * The locked step of a caller's wait for a block: installs the block reserved ahead,
	 * or gives up on a stuck reservation and starts one. Returns the reservation in
	 * flight, which the caller now waits for (and {@link Reservation#leave leaves}
	 * afterwards), and the one to submit; none to wait for when a block other than
	 * {@code exhausted} is served, or for {@code warmUp} any block with IDs left or
	 * ready.
	 * @throws NodeClosedException if the node is closed
	 */
	CallerWaits.Joined join(@Nullable Block exhausted, CallerWaits.Wait wait, boolean warmUp) {
		Reservation toSubmit = null;
		Reservation toAwait = null;
		String gaveUp = null;
		synchronized (this.lock) {
			if (this.gate.isClosed()) {
				throw new NodeClosedException((warmUp ? "warmUp()" : "nextId()") + " was called on a closed CridNode");
			}
			if (warmUp ? (this.current.left() > 0 || this.stock.ids() > 0) : this.current.get() != exhausted) {
				return CallerWaits.Joined.NOTHING;
			}
			Block next = this.stock.next(this.timing.nanoTime());
			if (next != null) {
				toSubmit = install(next);
			}
			else {
				if (!warmUp && wait.stalls()) {
					this.statistics.stalled();
				}
				gaveUp = this.inFlight.abandonIfStuck(this.timing.nanoTime());
				toAwait = this.inFlight.get();
				if (toAwait == null) {
					long size = Math.max(this.pacing.allocationSize(), this.stock.wanted(this.timing.nanoTime()));
					toAwait = this.inFlight.begin(warmUp, size, this.timing.nanoTime());
					toSubmit = toAwait;
				}
				toAwait.join();
			}
		}
		this.reports.gaveUp(gaveUp);
		return new CallerWaits.Joined(toAwait, toSubmit);
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
	 * returns the reservation to submit when the stock asks for more at once, else
	 * {@code null}.
	 */
	private @Nullable Reservation install(Block block) {
		this.current.install(block, this.timing.nanoTime());
		this.stock.served();
		return this.stock.restocksOnInstall(block) ? restock() : null;
	}

	/**
	 * Makes the next block ready from the stock if none is, and returns the reservation
	 * to submit when the node holds too little: no block ahead, or with a runway less
	 * than it needs; else {@code null}.
	 */
	private @Nullable Reservation restock() {
		this.stock.next(this.timing.nanoTime());
		if (this.inFlight.get() != null) {
			return null;
		}
		long size = this.stock.wanted(this.timing.nanoTime());
		return (size > 0) ? this.inFlight.begin(true, size, this.timing.nanoTime()) : null;
	}

	@Override
	public boolean starting(Reservation reservation, Thread thread, boolean onCallerThread) {
		synchronized (this.lock) {
			return !this.gate.isClosed() && reservation.start(thread, onCallerThread);
		}
	}

	@Override
	public boolean mayCall(Reservation reservation) {
		synchronized (this.lock) {
			return !this.gate.isClosed() && !reservation.givenUp();
		}
	}

	@Override
	public Taken offer(Reservation reservation, Block block, long callNanos) {
		Answer answer;
		long failuresBefore = 0;
		Reservation next = null;
		synchronized (this.lock) {
			if (this.gate.isClosed() || reservation.givenUp()) {
				answer = Answer.DROPPED;
			}
			else if (!this.reserved.record(block.timestamp, block.start, block.size)) {
				this.statistics.registryWentBack();
				reservation.wentBack(block.timestamp);
				answer = Answer.WENT_BACK;
			}
			else {
				failuresBefore = this.statistics.succeeded(reservation.prefetch, callNanos);
				this.pacing.arrived(reservation.arrivalNanos(this.timing.nanoTime()));
				this.inFlight.land();
				this.stock.received(block);
				next = restock();
				answer = Answer.TAKEN;
			}
		}
		if (answer == Answer.TAKEN) {
			reservation.result.complete(block);
		}
		this.reports.answered(answer, block, failuresBefore);
		return new Taken(answer, next);
	}

	@Override
	public boolean failed(Reservation reservation, RuntimeException failure, long callNanos, boolean mayRetry) {
		long failuresInRow;
		boolean retry;
		synchronized (this.lock) {
			if (this.gate.isClosed() || reservation.givenUp()) {
				this.reports.dropped(failure);
				return false;
			}
			failuresInRow = this.statistics.failed(reservation.prefetch, callNanos, failure);
			reservation.failed(failure);
			retry = mayRetry && RetryPolicy.asksAgain(failure, reservation.awaited(),
					this.timing.nanoTime() - reservation.submitted);
			if (!retry) {
				this.inFlight.land();
				reservation.result.completeExceptionally(failure);
			}
		}
		this.reports.failed(failure, failuresInRow, retry, reservation.prefetch);
		return retry;
	}

	@Override
	public boolean ended(Reservation reservation) {
		synchronized (this.lock) {
			return this.inFlight.end(reservation);
		}
	}

	/**
	 * Closes the supply: no block is served or reserved from now on, and callers waiting
	 * are released.
	 * @return whether this call closed it
	 */
	boolean close() {
		Reservation pending;
		synchronized (this.lock) {
			if (this.gate.isClosed()) {
				return false;
			}
			this.gate.close();
			this.current.retire();
			this.stock.clear();
			pending = this.inFlight.land();
		}
		if (pending != null) {
			pending.result.completeExceptionally(new NodeClosedException("The CridNode was closed"));
		}
		return true;
	}

	/**
	 * A snapshot of the node's state, with what the dispenser holds: its IDs at hand and
	 * those lost.
	 */
	CridStats snapshot(long setAside, long lostAtClose) {
		synchronized (this.lock) {
			long issued = this.current.issued();
			double rate = this.rate.rate(this.timing.nanoTime(), issued);
			return this.statistics.snapshot(issued - setAside - lostAtClose, this.current.left() + setAside,
					this.stock.hasNext(), this.pacing.threshold(), this.pacing.allocationSize(), this.stock.ids(),
					this.rate.lasts(this.current.left() + this.stock.ids() + setAside, rate),
					this.inFlight.stuckCalls());
		}
	}

}
