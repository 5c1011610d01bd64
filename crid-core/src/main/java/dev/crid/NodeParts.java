package dev.crid;

import java.util.concurrent.locks.ReentrantLock;

/**
 * The parts of a {@link CridNode}, made from its settings and wired so that no part calls
 * one that calls it: {@link Dispenser} and {@link CallerWaits} ask {@link BlockSupply}
 * for blocks and hand the reservations it returns to {@link ReservationRunner}, which
 * runs them on the {@link NodeExecutor} and brings their answers back to the supply
 * through {@link Landing}; {@link InFlight} resizes the executor.
 *
 * <p>
 * Invariant of {@link #close()}: it returns only once the node is closed, for every
 * caller, even one that lost a race with another {@code close()}; then no block is
 * served, no registry call begins, and the node's own threads have stopped (or its bound
 * has passed).
 */
final class NodeParts {

	final CridParser parser;

	final BlockSupply supply;

	final CallerWaits waits;

	final Dispenser dispenser;

	private final NodeExecutor executor;

	/** Held while the node closes, so that a close() racing with another waits for it. */
	private final ReentrantLock closing = new ReentrantLock();

	NodeParts(NodeSettings settings) {
		this.parser = CridParser.of(settings.layout());
		NodeStatistics statistics = new NodeStatistics(settings.clock(), settings.timing());
		CallGate gate = new CallGate();
		BlockReserver reserver = new BlockReserver(settings, statistics, gate);
		this.executor = new NodeExecutor(settings, gate);
		InFlight inFlight = new InFlight(statistics, settings.allocationTimeout().toNanos(), reserver, this.executor);
		ReservationReports reports = new ReservationReports(reserver, settings.prefetchFailureHandler());
		this.supply = new BlockSupply(settings, statistics, inFlight, reports, gate);
		ReservationRunner runner = new ReservationRunner(this.supply, reserver, this.executor, settings, reports);
		this.waits = new CallerWaits(this.supply, runner, settings);
		this.dispenser = new Dispenser(this.supply, this.waits, runner, settings);
	}

	/**
	 * Closes the node: the supply and the stripes, once, then stops the node's threads
	 * and waits, a bounded time, for them and the registry calls under way (see
	 * {@link NodeExecutor#close}).
	 */
	void close() {
		this.closing.lock();
		try {
			if (this.supply.close()) {
				this.dispenser.close();
			}
		}
		finally {
			this.closing.unlock();
		}
		this.executor.close();
	}

}
