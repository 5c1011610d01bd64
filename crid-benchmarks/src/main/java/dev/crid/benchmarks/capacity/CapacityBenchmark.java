package dev.crid.benchmarks.capacity;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.crid.benchmarks.BenchmarkDatabase;
import dev.crid.benchmarks.BenchmarkTables;

/**
 * The capacity simulation: for each database and node count asked for, runs a
 * {@link Scenario} (nodes spread over a few worker processes on one registry, driven at
 * equal shares of the total rate), then prints the capacity table and writes it, as
 * Markdown and CSV, with one CSV of each scenario's nodes and the workers' logs, to the
 * output directory.
 *
 * <p>
 * Arguments, each {@code -name value}: {@code databases} (default
 * {@code postgresql,mariadb}), {@code nodes} (default {@code 10,100,1000}), {@code jvms}
 * (4), {@code rate} (total IDs per second, 10,000,000), {@code warmUp} and
 * {@code seconds} (10 and 40), {@code blockSize}, {@code threshold}, {@code runway}
 * (seconds), {@code sequenceBits} (the node's settings; defaults as crid's),
 * {@code tables} (1: registry tables the nodes are spread over), {@code nodesPerDriver}
 * (8: nodes per paced caller thread), {@code sampleEvery} (32: one call in so many is
 * timed), {@code poolSize} (4: connections per worker), {@code probeSeconds} (5: how long
 * the row is measured flat out before each scenario), {@code out} (the output directory,
 * default {@code target/capacity}) and {@code label} (the file names, default
 * {@code capacity}).
 */
public final class CapacityBenchmark {

	private CapacityBenchmark() {
	}

	/**
	 * Runs the scenarios.
	 * @param args the arguments
	 * @throws Exception if a scenario cannot run
	 */
	public static void main(String[] args) throws Exception {
		Arguments arguments = new Arguments(args);
		List<BenchmarkDatabase> databases = arguments.list("databases", "postgresql,mariadb")
			.stream()
			.map(Scenario::database)
			.toList();
		List<Integer> nodeCounts = arguments.list("nodes", "10,100,1000")
			.stream()
			.map((count) -> Integer.parseInt(count.trim()))
			.toList();
		Path out = Path.of(arguments.string("out", "target/capacity"));
		String label = arguments.string("label", "capacity");
		long probeSeconds = arguments.number("probeSeconds", 5);
		List<Scenario> scenarios = new ArrayList<>();
		for (BenchmarkDatabase database : databases) {
			for (int nodes : nodeCounts) {
				scenarios.add(Scenario.read(arguments, database, nodes));
			}
		}
		arguments.checkAllRead();
		CapacityReport report = run(scenarios, out, label, BenchmarkTables.named("crid_capacity"), probeSeconds);
		System.out.println();
		System.out.print(report.markdown());
		System.out.println("Written to " + out.toAbsolutePath());
	}

	/** Runs the scenarios one after the other and writes the report. */
	static CapacityReport run(List<Scenario> scenarios, Path out, String label, String table, long probeSeconds)
			throws IOException, InterruptedException {
		ScenarioRunner runner = new ScenarioRunner(out.resolve(label + "-logs"), table);
		CapacityReport report = new CapacityReport();
		for (Scenario scenario : scenarios) {
			String name = scenario.database().propertyName() + "-" + scenario.nodes() + "-nodes";
			System.out.println("== " + label + ": " + scenario);
			String loadAtStart = load();
			double row = RowProbe.callsPerSecond(scenario.database(), table + "_probe",
					scenario.jvms() * scenario.poolSize(), probeSeconds);
			List<NodeResult> nodes = runner.run(scenario, name);
			ScenarioSummary summary = new ScenarioSummary(scenario, row, loadAtStart, load(), nodes);
			CapacityReport.writeNodes(out.resolve(label + "-" + name + ".csv"), nodes);
			report.add(summary);
			report.write(out, label);
			System.out.printf("   reached %.2f M IDs/s, %.0f registry calls/s, the row flat out %.0f calls/s%n",
					summary.reachedRate() / 1e6, summary.registryCallsPerSecond(), row);
		}
		return report;
	}

	private static String load() {
		try {
			String[] fields = Files.readString(Path.of("/proc/loadavg"), StandardCharsets.US_ASCII).split(" ");
			return fields[0] + " " + fields[1] + " " + fields[2];
		}
		catch (IOException | RuntimeException ex) {
			return "n/a";
		}
	}

}
