package dev.crid;

import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * How late the machine runs threads now: a daemon thread asks to sleep 5 ms over and over
 * and records by how much it overslept, so a test that checks real-time bounds can add
 * what a loaded machine took from every thread to its slack instead of failing for it.
 */
final class SchedulingLag {

	private static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

	/** The largest lateness of each of the last 100 tenths of a second. */
	private static final long BUCKET_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

	private static final int BUCKETS = 100;

	/** What each runnable thread beyond one a core adds to the lateness allowed. */
	private static final long LOAD_NANOS_PER_THREAD = TimeUnit.MILLISECONDS.toNanos(100);

	private static final long[] bucketStarts = new long[BUCKETS];

	private static final long[] lateness = new long[BUCKETS];

	static {
		Thread meter = new Thread(SchedulingLag::measure, "scheduling-lag");
		meter.setDaemon(true);
		meter.start();
	}

	private SchedulingLag() {
	}

	/**
	 * The longest a thread was held up within the last {@code nanos} (ten seconds at
	 * most), and never less than a tenth of a second for every runnable thread beyond one
	 * a core in the last minute's load average: the meter sleeps between its ticks, and
	 * the scheduler favours a thread that slept, so it misses how long a thread that
	 * holds a lock or just ran waits for a core on a machine that many builds share.
	 */
	static long recentMax(long nanos) {
		long now = System.nanoTime();
		long max = loadAllowance();
		synchronized (lateness) {
			for (int i = 0; i < BUCKETS; i++) {
				if (now - bucketStarts[i] <= nanos + BUCKET_NANOS) {
					max = Math.max(max, lateness[i]);
				}
			}
		}
		return max;
	}

	private static long loadAllowance() {
		double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
		int cores = Runtime.getRuntime().availableProcessors();
		return (load > cores) ? (long) ((load - cores) * LOAD_NANOS_PER_THREAD) : 0;
	}

	private static void measure() {
		while (true) {
			long before = System.nanoTime();
			LockSupport.parkNanos(TICK_NANOS);
			long after = System.nanoTime();
			long late = Math.max(0, after - before - TICK_NANOS);
			int bucket = (int) ((after / BUCKET_NANOS) % BUCKETS);
			long start = after - after % BUCKET_NANOS;
			synchronized (lateness) {
				if (bucketStarts[bucket] != start) {
					bucketStarts[bucket] = start;
					lateness[bucket] = 0;
				}
				lateness[bucket] = Math.max(lateness[bucket], late);
			}
		}
	}

}
