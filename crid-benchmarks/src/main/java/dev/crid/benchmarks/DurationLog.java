package dev.crid.benchmarks;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Keeps every duration recorded — a node makes at most a few thousand registry calls per
 * second, so exact percentiles are cheap — up to a bound, past which it keeps counting
 * but stops storing.
 */
final class DurationLog {

	private static final int CAPACITY = 2_000_000;

	private long[] nanos = new long[1024];

	private int size;

	private long dropped;

	synchronized void record(long duration) {
		if (this.size == this.nanos.length) {
			if (this.size == CAPACITY) {
				this.dropped++;
				return;
			}
			this.nanos = Arrays.copyOf(this.nanos, Math.min(CAPACITY, this.size * 2));
		}
		this.nanos[this.size++] = duration;
	}

	/**
	 * Summarises the log in microseconds under keys starting with {@code prefix}: count,
	 * p50, p99, max and how many took at least {@code slowMicros}.
	 */
	synchronized Map<String, Object> summary(String prefix, long slowMicros) {
		long[] sorted = Arrays.copyOf(this.nanos, this.size);
		Arrays.sort(sorted);
		Map<String, Object> summary = new LinkedHashMap<>();
		summary.put(prefix + "Count", this.size + this.dropped);
		summary.put(prefix + "P50Micros", percentile(sorted, 0.50));
		summary.put(prefix + "P99Micros", percentile(sorted, 0.99));
		summary.put(prefix + "MaxMicros", (sorted.length > 0) ? sorted[sorted.length - 1] / 1000.0 : 0);
		int slow = sorted.length - lowerBound(sorted, slowMicros * 1000L);
		summary.put(prefix + "Over" + slowMicros + "us", slow);
		return summary;
	}

	private static double percentile(long[] sorted, double quantile) {
		if (sorted.length == 0) {
			return 0;
		}
		int index = (int) Math.min(sorted.length - 1, Math.ceil(quantile * sorted.length) - 1);
		return sorted[Math.max(index, 0)] / 1000.0;
	}

	private static int lowerBound(long[] sorted, long value) {
		int index = Arrays.binarySearch(sorted, value);
		if (index < 0) {
			return -index - 1;
		}
		while (index > 0 && sorted[index - 1] == value) {
			index--;
		}
		return index;
	}

}
