package dev.crid.benchmarks.capacity;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import dev.crid.benchmarks.BenchmarkDatabase;
import dev.crid.testsupport.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs the capacity simulation at its smallest, so that a change that breaks it fails the
 * build instead of the next capacity run: 3 nodes in one worker process on PostgreSQL, 2
 * s of measurement without warm-up after 1 s of the row flat out, in tables of this run's
 * own. The figures mean nothing; only that the worker ran every node, each node's figures
 * came back to the parent, and the table was written.
 */
class CapacitySmokeIntegrationTest {

	private static final String TABLE = "crid_capacity_smoke_"
			+ Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 24);

	private static final String[] PROPERTIES = { "url", "username", "password" };

	@BeforeAll
	static void pointTheSimulationAtTheTestDatabase() {
		TestDatabase.Endpoint endpoint = TestDatabase.POSTGRESQL.endpoint();
		String prefix = "crid.benchmarks." + BenchmarkDatabase.POSTGRESQL.propertyName() + ".";
		System.setProperty(prefix + "url", endpoint.url());
		System.setProperty(prefix + "username", endpoint.username());
		System.setProperty(prefix + "password", endpoint.password());
	}

	@AfterAll
	static void forgetTheTestDatabase() {
		for (String property : PROPERTIES) {
			System.clearProperty("crid.benchmarks." + BenchmarkDatabase.POSTGRESQL.propertyName() + "." + property);
		}
	}

	@Test
	void runsEveryNodeInAWorkerProcessAndReportsEachNodesFigures(@TempDir Path out)
			throws IOException, InterruptedException {
		Scenario scenario = new Scenario(BenchmarkDatabase.POSTGRESQL, 3, 1, 3_000, Duration.ZERO,
				Duration.ofSeconds(2), 100, 50, Duration.ZERO, 32, 1, 8, 1, 2);

		CapacityReport report = CapacityBenchmark.run(List.of(scenario), out, "smoke", TABLE, 1);

		List<String> nodes = Files.readAllLines(out.resolve("smoke-postgresql-3-nodes.csv"));
		assertThat(nodes).hasSize(4);
		for (String node : nodes.subList(1, nodes.size())) {
			String[] fields = node.split(",");
			assertThat(Long.parseLong(fields[3])).as("IDs served by node %s", fields[0]).isPositive();
			assertThat(Long.parseLong(fields[7])).as("registry calls of node %s", fields[0]).isPositive();
			assertThat(Long.parseLong(fields[10])).as("sequence numbers reserved by node %s", fields[0]).isPositive();
		}
		assertThat(report.markdown()).contains("| postgresql (block 100) | 3 × 1,000 | 1 | 0.00 | 0.00 |");
		assertThat(Files.readAllLines(out.resolve("smoke.csv"))).hasSize(2);
	}

}
