package dev.crid.etcd;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.crid.RegistryException;

/**
 * Keeps the registry's keys bounded: after a reservation, when an eviction is due, evicts
 * the seconds older than the retention, counted back from the second just reserved. It
 * runs on the thread that reserved (a node's background thread), at most once at a time
 * per registry and once per interval (a 24th of the retention, between a second and an
 * hour), the first run at a random point of the first interval so that nodes started
 * together do not evict together. Several processes evicting at once do no harm: each
 * raises the watermark to where it already is, and deletes what is left. A failure is
 * logged and never fails the reservation.
 */
final class EvictionSchedule {

	private static final System.Logger logger = System.getLogger(EtcdRegistry.class.getName());

	private static final long MIN_INTERVAL_NANOS = Duration.ofSeconds(1).toNanos();

	private static final long MAX_INTERVAL_NANOS = Duration.ofHours(1).toNanos();

	/** How long one run may spend deleting; a long backlog is worked off over several. */
	private static final long BUDGET_NANOS = Duration.ofSeconds(1).toNanos();

	private final Evictions evictions;

	private final String prefix;

	private final long retentionSeconds;

	private final long intervalNanos;

	private final AtomicBoolean running = new AtomicBoolean();

	private volatile long nextRun;

	EvictionSchedule(Evictions evictions, String prefix, Duration retention) {
		this.evictions = evictions;
		this.prefix = prefix;
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
			Evictions.Deleted deleted = this.evictions.evictBefore(before, BUDGET_NANOS);
			// A backlog is worked off at the next reservation; otherwise the next run
			// waits an interval, give or take a tenth.
			this.nextRun = System.nanoTime() + (deleted.complete() ? jittered(this.intervalNanos) : 0);
			logger.log(System.Logger.Level.DEBUG,
					() -> "Evicted " + deleted.keys() + " seconds before " + before
							+ " from the crid registry under etcd prefix '" + this.prefix + "'"
							+ (deleted.complete() ? "" : "; more are left for the next run"));
		}
		catch (RegistryException ex) {
			this.nextRun = System.nanoTime() + this.intervalNanos;
			logger.log(System.Logger.Level.WARNING,
					() -> "Could not evict old seconds from the crid registry under etcd prefix '" + this.prefix
							+ "' (tried again in " + Duration.ofNanos(this.intervalNanos) + "): " + ex.getMessage());
		}
		finally {
			this.running.set(false);
		}
	}

	private static long jittered(long nanos) {
		return nanos - nanos / 10 + ThreadLocalRandom.current().nextLong(nanos / 5 + 1);
	}

}
