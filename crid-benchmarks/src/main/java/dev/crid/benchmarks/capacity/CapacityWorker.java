package dev.crid.benchmarks.capacity;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.zaxxer.hikari.HikariDataSource;
import dev.crid.CridLayout;
import dev.crid.CridNode;
import dev.crid.jdbc.JdbcTemplateRegistry;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * One worker process of the simulation: builds its share of the scenario's nodes with the
 * public API, each on a {@link JdbcTemplateRegistry} of its own over the process's one
 * connection pool, reserves each node's first block, says {@code READY} on standard
 * output, and waits for {@code GO} on standard input; then drives the nodes for the
 * warm-up and the measurement, and writes one {@link NodeResult} line per node to the
 * result file.
 */
public final class CapacityWorker {

	private CapacityWorker() {
	}

	/**
	 * Runs one worker.
	 * @param args the scenario as {@link Scenario#toArguments()} writes it, with
	 * {@code -jvm}, {@code -table} and {@code -result}
	 * @throws Exception if the worker cannot run
	 */
	public static void main(String[] args) throws Exception {
		Arguments arguments = new Arguments(args);
		Scenario scenario = Scenario.fromArguments(arguments);
		int jvm = arguments.integer("jvm", 0);
		String table = arguments.string("table", "crid_capacity");
		Path result = Path.of(arguments.string("result", "capacity-result.tsv"));
		arguments.checkAllRead();
		CridLayout layout = CridLayout.of(CridLayout.DEFAULT.epoch(), 63 - scenario.sequenceBits(),
				scenario.sequenceBits());
		try (HikariDataSource dataSource = scenario.database().dataSource(scenario.poolSize())) {
			JdbcTemplate jdbcTemplate = new JdbcTemplate(dataSource);
			List<SimulatedNode> nodes = new ArrayList<>();
			int first = scenario.firstNodeOf(jvm);
			for (int index = first; index < first + scenario.nodesOf(jvm); index++) {
				JdbcTemplateRegistry registry = JdbcTemplateRegistry.builder(jdbcTemplate)
					.tableName(scenario.table(table, index))
					.build();
				RecordingRegistry recorder = new RecordingRegistry(registry, layout);
				CridNode node = CridNode.builder(recorder)
					.layout(layout)
					.blockSize(scenario.blockSize())
					.threshold(scenario.threshold())
					.runway(scenario.runway())
					.build();
				node.warmUp();
				nodes.add(new SimulatedNode(index, node, recorder, scenario.ratePerNode()));
			}
			System.out.println("READY");
			System.out.flush();
			awaitGo();
			try {
				run(scenario, jvm, nodes, result);
			}
			finally {
				nodes.forEach((node) -> node.node().close());
			}
		}
		System.out.println("DONE");
		System.out.flush();
	}

	private static void awaitGo() throws IOException {
		BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
		String line;
		while ((line = in.readLine()) != null) {
			if (line.trim().equals("GO")) {
				return;
			}
		}
		throw new IOException("Standard input closed before GO");
	}

	private static void run(Scenario scenario, int jvm, List<SimulatedNode> nodes, Path result)
			throws IOException, InterruptedException {
		long start = System.nanoTime();
		long measurementStart = start + scenario.warmUp().toNanos();
		long end = measurementStart + scenario.measurement().toNanos();
		int driverCount = (nodes.size() + scenario.nodesPerDriver() - 1) / scenario.nodesPerDriver();
		List<PacedDriver> drivers = new ArrayList<>();
		List<List<SimulatedNode>> shares = new ArrayList<>();
		for (int d = 0; d < driverCount; d++) {
			shares.add(new ArrayList<>());
		}
		for (int i = 0; i < nodes.size(); i++) {
			shares.get(i % driverCount).add(nodes.get(i));
		}
		for (int d = 0; d < driverCount; d++) {
			PacedDriver driver = new PacedDriver("capacity-driver-" + d, shares.get(d), scenario.sampleEvery(), start,
					measurementStart, end);
			drivers.add(driver);
			driver.start();
		}
		sleepUntil(measurementStart);
		nodes.forEach(SimulatedNode::measurementStarts);
		sleepUntil(end);
		nodes.forEach(SimulatedNode::measurementEnds);
		for (PacedDriver driver : drivers) {
			driver.join();
		}
		double seconds = scenario.measurement().toNanos() / 1e9;
		try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(result, StandardCharsets.UTF_8))) {
			for (int d = 0; d < driverCount; d++) {
				for (SimulatedNode node : shares.get(d)) {
					out.println(node.result(jvm, seconds, drivers.get(d)).toLine());
				}
			}
		}
	}

	private static void sleepUntil(long nanoTime) throws InterruptedException {
		long left;
		while ((left = nanoTime - System.nanoTime()) > 0) {
			TimeUnit.NANOSECONDS.sleep(left);
		}
	}

}
