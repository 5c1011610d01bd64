package dev.crid.sql;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Keeps the registry table bounded: after a reservation, when an eviction is due, evicts
 * the seconds older than the retention, counted back from the second given (the one just
 * reserved, or the database's own when it is earlier). It runs on the thread that
 * reserved (a node's background thread), at most once at a time per registry and once per
 * interval (a 24th of the retention, between a second and an hour), with the first run at
 * a random point of the first interval so that nodes started together do not evict
 * together. Several nodes evicting at once do no harm: each raises the watermark to where
 * it already is, and deletes what is left. A failure is logged and never fails the
 * reservation.
 */
final class EvictionSchedule {

	private static final long MIN_INTERVAL_NANOS = Duration.ofSeconds(1).toNanos();

	private static final long MAX_INTERVAL_NANOS = Duration.ofHours(1).toNanos();

	/**
	 * How long one run may spend deleting; a table with a long backlog is worked off over
	 * several.
	 */
	private static final long BUDGET_NANOS = Duration.ofSeconds(1).toNanos();

	private final Evictor evictor;

	private final String table;

	private final long retentionSeconds;

	private final long intervalNanos;

	private final System.Logger logger;

	private final AtomicBoolean running = new AtomicBoolean();

	private volatile long nextRun;

	EvictionSchedule(Evictor evictor, String table, Duration retention, System.Logger logger) {
		this.evictor = evictor;
		this.table = table;
		this.retentionSeconds = retention.toSeconds();
		this.intervalNanos = Math.max(MIN_INTERVAL_NANOS, Math.min(MAX_INTERVAL_NANOS, retention.toNanos() / 24));
		this.logger = logger;
		this.nextRun = System.nanoTime() + ThreadLocalRandom.current().nextLong(this.intervalNanos);
	}

	void afterReservation(long reference) {
		if (System.nanoTime() - this.nextRun < 0 || !this.running.compareAndSet(false, true)) {
			return;
		}
		try {
			long before = reference - this.retentionSeconds;
			if (before <= 0) {
				this.nextRun = System.nanoTime() + this.intervalNanos;
				return;
			}
			RegistryMetadata.Deleted deleted = this.evictor.evict(before, BUDGET_NANOS);
			// Work off a backlog at the next reservation; otherwise wait an interval,
			// give or take a tenth.
			this.nextRun = System.nanoTime() + (deleted.complete() ? jittered(this.intervalNanos) : 0);
			this.logger.log(Level.DEBUG,
					() -> "Evicted " + deleted.rows() + " rows of seconds before " + before
							+ " from the crid registry table '" + this.table + "'"
							+ (deleted.complete() ? "" : "; more are left for the next run"));
		}
		catch (RuntimeException ex) {
			this.nextRun = System.nanoTime() + this.intervalNanos;
			this.logger.log(Level.WARNING, "Could not evict old seconds from the crid registry table '" + this.table
					+ "' (tried again in " + Duration.ofNanos(this.intervalNanos) + "): " + ex.getMessage());
		}
		finally {
			this.running.set(false);
		}
	}

	private static long jittered(long nanos) {
		return nanos - nanos / 10 + ThreadLocalRandom.current().nextLong(nanos / 5 + 1);
	}

	/** Evicts the seconds before a watermark, within a budget of time. */
	@FunctionalInterface
	interface Evictor {

		RegistryMetadata.Deleted evict(long before, long budgetNanos);

	}

}
