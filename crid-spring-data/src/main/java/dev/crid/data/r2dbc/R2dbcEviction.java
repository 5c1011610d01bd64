package dev.crid.data.r2dbc;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import dev.crid.RegistryException;

/**
 * Keeps the registry table bounded, by the JDBC registry's rule: after a reservation, at
 * most once per interval (a 24th of the retention, between a second and an hour, the
 * first at a random point of the first interval so that nodes started together do not
 * evict together) and once at a time, evicts the seconds older than the retention. A
 * failure is logged and never fails the reservation.
 */
final class R2dbcEviction {

	private static final Log logger = LogFactory.getLog(R2dbcRegistry.class);

	/**
	 * How long one run may spend deleting; a long backlog is worked off over several
	 * runs.
	 */
	private static final long BUDGET_NANOS = Duration.ofSeconds(1).toNanos();

	private final R2dbcStorage storage;

	private final String table;

	private final long retentionSeconds;

	private final long intervalNanos;

	private final AtomicBoolean running = new AtomicBoolean();

	private volatile long nextRun;

	R2dbcEviction(R2dbcStorage storage, String table, Duration retention) {
		this.storage = storage;
		this.table = table;
		this.retentionSeconds = retention.toSeconds();
		this.intervalNanos = Math.max(Duration.ofSeconds(1).toNanos(),
				Math.min(Duration.ofHours(1).toNanos(), retention.toNanos() / 24));
		this.nextRun = System.nanoTime() + ThreadLocalRandom.current().nextLong(this.intervalNanos);
	}

	void afterReservation(long timestamp) {
		if (System.nanoTime() - this.nextRun < 0 || !this.running.compareAndSet(false, true)) {
			return;
		}
		long interval = this.intervalNanos - this.intervalNanos / 10
				+ ThreadLocalRandom.current().nextLong(this.intervalNanos / 5 + 1);
		try {
			long before = timestamp - this.retentionSeconds;
			long deleted = (before > 0) ? this.storage.evict(before, BUDGET_NANOS) : 0;
			// A negative count means rows are left: work them off at the next
			// reservation.
			this.nextRun = System.nanoTime() + ((deleted >= 0) ? interval : 0);
			logger.debug("Evicted the seconds before " + before + " from the crid registry table '" + this.table + "'");
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

}
