package dev.crid.benchmarks.capacity;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.StringJoiner;

import dev.crid.CridNode;
import org.HdrHistogram.Histogram;

/**
 * The capacity table: one row per scenario, as Markdown (printed and written) and as CSV
 * with every figure; and one CSV per scenario with each node's figures.
 */
final class CapacityReport {

	private static final String[] HEADER = { "Database", "Nodes × IDs/s each", "JVMs", "Asked (M IDs/s)",
			"Reached (M IDs/s)", "Registry calls/s", "The row flat out (calls/s)", "nextId() p99 / p99.9 (ns)",
			"Worst node's p99.9 (ns)", "Registry call p50 / p99 / max (ms)", "Second used up", "Stalls",
			"Synchronous allocations", "Errors", "Allocation size at the end, median / max",
			"Sequence numbers/s per node, min/max · Jain", "Served/asked, lowest node",
			"Ticks > 10 ms late / latest (ms)", "Wake-ups > 10 ms late / latest (ms)",
			"Load (1, 5, 15 min) start → end" };

	private final List<ScenarioSummary> summaries = new ArrayList<>();

	void add(ScenarioSummary summary) {
		this.summaries.add(summary);
	}

	String markdown() {
		StringBuilder out = new StringBuilder();
		out.append(row(HEADER)).append('\n');
		String[] rule = new String[HEADER.length];
		Arrays.fill(rule, "---");
		out.append(row(rule)).append('\n');
		for (ScenarioSummary summary : this.summaries) {
			out.append(row(cells(summary))).append('\n');
		}
		return out.toString();
	}

	private static String[] cells(ScenarioSummary s) {
		Scenario scenario = s.scenario();
		Histogram nextId = s.nextIdNanos();
		Histogram registry = s.registryNanos();
		long[] sizes = s.allocationSizes();
		Fairness share = s.reservedShare();
		return new String[] { scenario.database().propertyName() + settings(scenario),
				group(scenario.nodes()) + " × " + group(scenario.ratePerNode()), Integer.toString(scenario.jvms()),
				decimal(scenario.totalRate() / 1e6), decimal(s.reachedRate() / 1e6),
				group(Math.round(s.registryCallsPerSecond())), group(Math.round(s.rowCallsPerSecond())),
				group(nextId.getValueAtPercentile(99)) + " / " + group(nextId.getValueAtPercentile(99.9)),
				group(s.worstNodeP999()),
				millis(registry.getValueAtPercentile(50)) + " / " + millis(registry.getValueAtPercentile(99)) + " / "
						+ millis(registry.getMaxValue()),
				group(s.sum(NodeResult::usedUp)), group(s.sum(NodeResult::stalls)),
				group(s.sum(NodeResult::synchronousAllocations)), group(s.sum(NodeResult::errors)),
				group(sizes[0]) + " / " + group(sizes[1]),
				String.format(Locale.ROOT, "%.2f · %.3f", share.minOverMax(), share.jain()),
				String.format(Locale.ROOT, "%.3f", s.lowestServedOverAsked()),
				group(s.sum(NodeResult::lateTicks)) + " / " + millis(s.max(NodeResult::maxLatenessNanos)),
				group(s.sum(NodeResult::lateWakeUps)) + " / " + millis(s.max(NodeResult::maxWakeUpNanos)),
				s.loadAtStart() + " → " + s.loadAtEnd() };
	}

	/** The settings that differ from the defaults, after the database's name. */
	private static String settings(Scenario scenario) {
		StringJoiner settings = new StringJoiner(", ", " (", ")").setEmptyValue("");
		if (scenario.blockSize() != CridNode.DEFAULT_BLOCK_SIZE) {
			settings.add("block " + group(scenario.blockSize()));
		}
		if (!scenario.runway().isZero()) {
			settings.add("runway " + scenario.runway().toSeconds() + " s");
		}
		if (scenario.tables() > 1) {
			settings.add(scenario.tables() + " tables");
		}
		if (scenario.sequenceBits() != 32) {
			settings.add(scenario.sequenceBits() + " sequence bits");
		}
		return settings.toString();
	}

	void write(Path directory, String label) throws IOException {
		Files.createDirectories(directory);
		Files.writeString(directory.resolve(label + ".md"), markdown(), StandardCharsets.UTF_8);
		List<String> csv = new ArrayList<>();
		csv.add("database,blockSize,runwaySeconds,tables,sequenceBits,nodes,jvms,ratePerNode,askedPerSecond,"
				+ "reachedPerSecond,seconds,registryCalls,registryCallsPerSecond,rowCallsPerSecond,nextIdP50Nanos,nextIdP99Nanos,"
				+ "nextIdP999Nanos,nextIdMaxNanos,nextIdSamples,worstNodeP999Nanos,registryP50Nanos,"
				+ "registryP99Nanos,registryMaxNanos,registryFailures,usedUp,stalls,synchronousAllocations,errors,"
				+ "allocationSizeMedian,allocationSizeMax,reservedMinOverMax,reservedJain,servedJain,"
				+ "lowestServedOverAsked,lateTicks,maxLatenessNanos,lateWakeUps,maxWakeUpNanos,loadAtStart,loadAtEnd");
		for (ScenarioSummary s : this.summaries) {
			Scenario c = s.scenario();
			Histogram nextId = s.nextIdNanos();
			Histogram registry = s.registryNanos();
			long[] sizes = s.allocationSizes();
			csv.add(String.join(",", c.database().propertyName(), str(c.blockSize()), str(c.runway().toSeconds()),
					str(c.tables()), str(c.sequenceBits()), str(c.nodes()), str(c.jvms()), str(c.ratePerNode()),
					str(c.totalRate()), str(Math.round(s.reachedRate())), str(s.seconds()), str(s.registryCalls()),
					str(Math.round(s.registryCallsPerSecond())), str(Math.round(s.rowCallsPerSecond())),
					str(nextId.getValueAtPercentile(50)), str(nextId.getValueAtPercentile(99)),
					str(nextId.getValueAtPercentile(99.9)), str(nextId.getMaxValue()), str(nextId.getTotalCount()),
					str(s.worstNodeP999()), str(registry.getValueAtPercentile(50)),
					str(registry.getValueAtPercentile(99)), str(registry.getMaxValue()),
					str(s.sum(NodeResult::registryFailures)), str(s.sum(NodeResult::usedUp)),
					str(s.sum(NodeResult::stalls)), str(s.sum(NodeResult::synchronousAllocations)),
					str(s.sum(NodeResult::errors)), str(sizes[0]), str(sizes[1]), str(s.reservedShare().minOverMax()),
					str(s.reservedShare().jain()), str(s.servedShare().jain()), str(s.lowestServedOverAsked()),
					str(s.sum(NodeResult::lateTicks)), str(s.max(NodeResult::maxLatenessNanos)),
					str(s.sum(NodeResult::lateWakeUps)), str(s.max(NodeResult::maxWakeUpNanos)),
					'"' + s.loadAtStart() + '"', '"' + s.loadAtEnd() + '"'));
		}
		Files.write(directory.resolve(label + ".csv"), csv, StandardCharsets.UTF_8);
	}

	/** Each node's figures of one scenario. */
	static void writeNodes(Path file, List<NodeResult> nodes) throws IOException {
		List<String> csv = new ArrayList<>();
		csv.add("node,jvm,rate,ids,dropped,seconds,errors,registryCalls,registryFailures,usedUp,reserved,stalls,"
				+ "synchronousAllocations,allocationSize,prefetchThreshold,nextIdP99Nanos,nextIdP999Nanos,"
				+ "registryP99Nanos,lateTicks,maxLatenessNanos,lateWakeUps,maxWakeUpNanos,lastError");
		for (NodeResult n : nodes) {
			csv.add(String.join(",", str(n.index()), str(n.jvm()), str(n.rate()), str(n.ids()), str(n.dropped()),
					str(n.seconds()), str(n.errors()), str(n.registryCalls()), str(n.registryFailures()),
					str(n.usedUp()), str(n.reserved()), str(n.stalls()), str(n.synchronousAllocations()),
					str(n.allocationSize()), str(n.prefetchThreshold()), str(n.nextIdNanos().getValueAtPercentile(99)),
					str(n.nextIdNanos().getValueAtPercentile(99.9)), str(n.registryNanos().getValueAtPercentile(99)),
					str(n.lateTicks()), str(n.maxLatenessNanos()), str(n.lateWakeUps()), str(n.maxWakeUpNanos()),
					'"' + n.lastError().replace("\"", "'") + '"'));
		}
		Files.write(file, csv, StandardCharsets.UTF_8);
	}

	private static String row(String[] cells) {
		return "| " + String.join(" | ", cells) + " |";
	}

	private static String group(long value) {
		return String.format(Locale.ROOT, "%,d", value);
	}

	private static String decimal(double value) {
		return String.format(Locale.ROOT, (value >= 10) ? "%.1f" : "%.2f", value);
	}

	private static String millis(long nanos) {
		double millis = nanos / 1e6;
		return String.format(Locale.ROOT, (millis >= 10) ? "%.0f" : (millis >= 1) ? "%.1f" : "%.2f", millis);
	}

	private static String str(Object value) {
		return (value instanceof Double d) ? String.format(Locale.ROOT, "%.4f", d) : String.valueOf(value);
	}

}
