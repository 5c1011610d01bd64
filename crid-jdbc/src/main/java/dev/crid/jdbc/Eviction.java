package dev.crid.jdbc;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import dev.crid.RegistryException;

/**
 * Keeps the registry table bounded: after a reservation, when an eviction is due, evicts
 * the seconds older than the retention, counted back from the second just reserved. It
 * runs on the thread that reserved (a node's background thread), at most once at a time
 * per registry and once per interval (a 24th of the retention, between a second and an
 * hour), with the first run at a random point of the first interval so that nodes started
 * together do not evict together. Several nodes evicting at once do no harm: each raises
 * the watermark to where it already is, and deletes what is left. A failure is logged and
 * never fails the reservation.
 */
final class Eviction {

	private static final Log logger = LogFactory.getLog(JdbcTemplateRegistry.class);

	private static final long MIN_INTERVAL_NANOS = Duration.ofSeconds(1).toNanos();

	private static final long MAX_INTERVAL_NANOS = Duration.ofHours(1).toNanos();

	/**
	 * How long one run may spend deleting; a table with a long backlog is worked off over
	 * several.
	 */
	private static final long BUDGET_NANOS = Duration.ofSeconds(1).toNanos();

	private final RegistryStorage storage;

	private final String table;

	private final long retentionSeconds;

	private final long intervalNanos;

	private final AtomicBoolean running = new AtomicBoolean();

	private volatile long nextRun;

	Eviction(RegistryStorage storage, String table, Duration retention) {
		this.storage = storage;
		this.table = table;
		this.retentionSeconds = retention.toSeconds();
		this.intervalNanos = Math.max(MIN_INTERVAL_NANOS, Math.min(MAX_INTERVAL_NANOS, retention.toNanos() / 24));
		this.nextRun = System.nanoTime() + ThreadLocalRandom.current().nextLong(this.intervalNanos);
	}

	void afterReservation(long timestamp) {
		if (System.nanoTime() - this.nextRun < 0 || !this.running.compareAndSet(false, true)) {
			return;
		}
		try {
			long before = timestamp - this.retentionSeconds;
			if (before <= 0) {
				this.nextRun = System.nanoTime() + this.intervalNanos;
				return;
			}
			RegistryMetadata.Deleted deleted = this.storage.evict(before, BUDGET_NANOS);
			// Work off a backlog at the next reservation; otherwise wait an interval,
			// give or take a tenth.
			this.nextRun = System.nanoTime() + (deleted.complete() ? jittered(this.intervalNanos) : 0);
			if (logger.isDebugEnabled()) {
				logger.debug("Evicted " + deleted.rows() + " rows of seconds before " + before
						+ " from the crid registry " + "table '" + this.table + "'"
						+ (deleted.complete() ? "" : "; more are left for the next run"));
			}
		}
		catch (RegistryException ex) {
			this.nextRun = System.nanoTime() + this.intervalNanos;
			logger.warn("Could not evict old seconds from the crid registry table '" + this.table + "' (tried again in "
					+ Duration.ofNanos(this.intervalNanos) + "): " + ex.getMessage());
		}
		finally {
			this.running.set(false);
		}
	}

	private static long jittered(long nanos) {
		return nanos - nanos / 10 + ThreadLocalRandom.current().nextLong(nanos / 5 + 1);
	}

}
