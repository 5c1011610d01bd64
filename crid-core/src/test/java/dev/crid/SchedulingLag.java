package dev.crid;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * How late the machine runs threads now: a daemon thread asks to sleep 5 ms over and over
 * and records by how much it overslept, so a test that checks real-time bounds can add
 * what a loaded machine took from every thread to its slack instead of failing for it.
 * And, where the kernel counts it, how long the current thread itself waited for a core
 * while it was ready to run, which the meter, a thread the scheduler favours, underrates.
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

	/**
	 * The kernel's scheduling counters of the thread that reads it (Linux): time on a
	 * core, time ready but waiting for one, and time slices, the times in nanoseconds.
	 */
	private static final Path THREAD_SCHEDSTAT = Path.of("/proc/thread-self/schedstat");

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

	/**
	 * How long the current thread has waited for a core, in all, while it was ready to
	 * run: what the machine took from it, whatever it was doing (waking from a wait,
	 * running code, or taken off its core); 0 where the kernel does not tell.
	 */
	static long waitedForCore() {
		try {
			String[] counters = Files.readString(THREAD_SCHEDSTAT).trim().split(" ");
			return Long.parseLong(counters[1]);
		}
		catch (IOException | RuntimeException ex) {
			return 0;
		}
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
