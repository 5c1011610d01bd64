package dev.crid.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

import dev.crid.CridStats;

/**
 * Writes what a benchmark learned beside JMH's scores — a node's stall and reservation
 * counters — as one JSON object per line: to standard output, prefixed with
 * {@code crid-stats}, and appended to the file named by the system property
 * {@value #FILE_PROPERTY} when it is set. The report script reads that file. Each line
 * names the run it belongs to when the system property {@value #RUN_PROPERTY} is set, so
 * the report can tell repeated runs of one benchmark apart.
 */
final class StatsLog {

	/** System property naming the file the lines are appended to. */
	static final String FILE_PROPERTY = "crid.benchmarks.stats";

	/**
	 * System property naming the run, as {@code run-benchmarks.sh} names its JMH
	 * commands.
	 */
	static final String RUN_PROPERTY = "crid.benchmarks.run";

	private StatsLog() {
	}

	/**
	 * Records a node's counters at the end of a trial, with the prefetch threshold and
	 * {@code allocationSize} it adapted to by then.
	 */
	static void record(String benchmark, String registry, int threads, CridStats stats, Map<String, Object> extra) {
		Map<String, Object> values = new LinkedHashMap<>();
		values.put("benchmark", benchmark);
		values.put("registry", registry);
		values.put("threads", threads);
		values.put("idsIssued", stats.idsIssued());
		values.put("stalls", stats.stalls());
		values.put("synchronousAllocations", stats.synchronousAllocations().count());
		values.put("synchronousFailures", stats.synchronousAllocations().failures());
		values.put("prefetchAllocations", stats.prefetchAllocations().count());
		values.put("prefetchFailures", stats.prefetchAllocations().failures());
		values.put("meanAllocationMicros", meanMicros(stats));
		values.put("prefetchThreshold", stats.prefetchThreshold());
		values.put("allocationSize", stats.allocationSize());
		// What the node would lose if it stopped now: the gap a restart leaves.
		values.put("idsHeld", stats.idsLeftInBlock() + stats.idsInStock());
		values.putAll(extra);
		write(values);
	}

	private static double meanMicros(CridStats stats) {
		long count = stats.prefetchAllocations().count() + stats.synchronousAllocations().count();
		Duration total = stats.prefetchAllocations().totalTime().plus(stats.synchronousAllocations().totalTime());
		return (count > 0) ? total.toNanos() / 1000.0 / count : 0;
	}

	static void write(Map<String, Object> values) {
		String run = System.getProperty(RUN_PROPERTY);
		if (run != null && !run.isBlank()) {
			values = new LinkedHashMap<>(values);
			values.put("run", run);
		}
		String line = values.entrySet()
			.stream()
			.map((entry) -> quote(entry.getKey()) + ":" + json(entry.getValue()))
			.collect(Collectors.joining(",", "{", "}"));
		System.out.println("crid-stats " + line);
		String file = System.getProperty(FILE_PROPERTY);
		if (file != null && !file.isBlank()) {
			try {
				Files.writeString(Path.of(file), line + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
						StandardOpenOption.APPEND);
			}
			catch (IOException ex) {
				throw new UncheckedIOException("Could not append to " + file, ex);
			}
		}
	}

	private static String json(Object value) {
		if (value instanceof Collection<?> values) {
			return values.stream().map(StatsLog::json).collect(Collectors.joining(",", "[", "]"));
		}
		if (value instanceof Number || value instanceof Boolean) {
			return String.valueOf(value);
		}
		return quote(String.valueOf(value));
	}

	private static String quote(String text) {
		return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
	}

}
