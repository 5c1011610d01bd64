package dev.crid;

import java.lang.System.Logger.Level;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

/**
 * What a node tells of its reservations: its log lines, and the {@code onPrefetchFailure}
 * handler.
 *
 * <p>
 * Invariant: nothing here runs under the supply's lock, and nothing here can end a
 * reservation early: whatever the handler throws is logged, and an {@link Error} is
 * rethrown only to the reservation's run, which ends the reservation first. A run of
 * failures is logged at WARN on its first failure and then only at every power of two, so
 * an outage stays readable.
 */
final class ReservationReports {

	private static final System.Logger logger = System.getLogger(CridNode.class.getName());

	private final Object registry;

	private final @Nullable Consumer<? super RuntimeException> prefetchFailureHandler;

	ReservationReports(Object registry, @Nullable Consumer<? super RuntimeException> prefetchFailureHandler) {
		this.registry = registry;
		this.prefetchFailureHandler = prefetchFailureHandler;
	}

	/** Tells what became of a block a registry call returned. */
	void answered(Landing.Answer answer, Block block, long failuresBefore) {
		switch (answer) {
			case TAKEN -> taken(failuresBefore);
			case DROPPED -> dropped(block);
			case WENT_BACK -> wentBack(block);
		}
	}

	private void taken(long failuresBefore) {
		if (failuresBefore > 0) {
			logger.log(Level.INFO, () -> "Registry " + this.registry + " reserved a block again after " + failuresBefore
					+ " failed calls");
		}
	}

	void dropped(Object what) {
		logger.log(Level.DEBUG, () -> "Dropped " + what + " of registry " + this.registry + ": the node closed or "
				+ "gave up on its reservation");
	}

	private void wentBack(Block block) {
		logger.log(Level.WARNING, () -> "Registry " + this.registry + " went back: it answered sequence numbers ["
				+ block.start + ", " + (block.start + block.size) + ") of timestamp " + block.timestamp + ", which "
				+ "overlap a block it gave this node before (a restored backup, or a failover to a replica that "
				+ "lagged?). The block is refused and the node moves on to the next second; other nodes may have been "
				+ "given those numbers too");
	}

	void gaveUp(@Nullable String message) {
		if (message != null) {
			logger.log(Level.WARNING, message);
		}
	}

	/** Logs a failed call and tells the handler of a failed background reservation. */
	void failed(RuntimeException failure, long failuresInRow, boolean retry, boolean prefetch) {
		logger.log((Long.bitCount(failuresInRow) == 1) ? Level.WARNING : Level.DEBUG,
				() -> "Block reservation from " + "registry " + this.registry + " failed (" + failuresInRow
						+ " in a row)" + (retry ? ", trying again" : "") + ": " + NodeStatistics.describe(failure));
		if (!prefetch || this.prefetchFailureHandler == null) {
			return;
		}
		try {
			this.prefetchFailureHandler.accept(failure);
		}
		catch (Throwable ex) {
			logger.log(Level.WARNING, "The onPrefetchFailure handler threw", ex);
			if (ex instanceof VirtualMachineError error) {
				throw error;
			}
		}
	}

	void directExecutor() {
		logger.log(Level.WARNING, "The prefetch executor given to CridNode runs tasks on the calling thread: registry "
				+ "calls then block the callers of nextId() for as long as they take, beyond the allocation timeout, "
				+ "and failed calls are not retried in the background. Give the node an executor with threads of its "
				+ "own, or none");
	}

}
