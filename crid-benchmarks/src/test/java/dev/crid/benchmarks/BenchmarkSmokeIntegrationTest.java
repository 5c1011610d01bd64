package dev.crid.benchmarks;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import dev.crid.testsupport.TestDatabase;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs every benchmark once, in this JVM and briefly, so that a change that breaks one — in its code,
 * its JMH annotations or the database it needs — fails the build instead of the next benchmark run. The
 * figures mean nothing; only that every benchmark and parameter produced a positive score.
 */
class BenchmarkSmokeIntegrationTest {

	/** The parameters that name a variant; the others only size the work. */
	private static final Set<String> VARIANTS = Set.of("registry", "database", "strategy");

	@BeforeAll
	static void pointBenchmarksAtTestDatabases() {
		use("postgresql", TestDatabase.POSTGRESQL.endpoint());
		use("mariadb", TestDatabase.MARIADB.endpoint());
	}

	private static void use(String name, TestDatabase.Endpoint endpoint) {
		System.setProperty("crid.benchmarks." + name + ".url", endpoint.url());
		System.setProperty("crid.benchmarks." + name + ".username", endpoint.username());
		System.setProperty("crid.benchmarks." + name + ".password", endpoint.password());
	}

	@Test
	void everyBenchmarkProducesAScore() throws RunnerException {
		Options options = new OptionsBuilder().include(NextIdBenchmark.class.getName())
			.include(PacedNextIdBenchmark.class.getName())
			.include(RegistryAllocationBenchmark.class.getName())
			.include(JpaInsertBenchmark.class.getName())
			.param("registry", "memory", "delayed", "postgresql")
			.param("rows", "200")
			.param("rowsPerTransaction", "100")
			.forks(0)
			.threads(1)
			.warmupIterations(0)
			.measurementIterations(1)
			.measurementTime(TimeValue.milliseconds(100))
			.shouldFailOnError(true)
			.verbosity(VerboseMode.SILENT)
			.build();
		// JMH allows one run per machine through a lock file; a benchmark run beside the build must not fail it.
		System.setProperty("jmh.ignoreLock", "true");
		Collection<RunResult> results = new Runner(options).run();
		Map<String, Double> scores = new TreeMap<>();
		for (RunResult result : results) {
			BenchmarkParams params = result.getParams();
			String name = params.getBenchmark().replace("dev.crid.benchmarks.", "") + params.getParamsKeys()
				.stream()
				.filter(VARIANTS::contains)
				.map(params::getParam)
				.collect(Collectors.joining(",", "[", "]"));
			scores.put(name, result.getPrimaryResult().getScore());
		}
		assertThat(scores).containsOnlyKeys(expected());
		assertThat(scores).allSatisfy((name, score) -> assertThat(score).as(name).isPositive());
	}

	private static List<String> expected() {
		return List.of("NextIdBenchmark.atomicLong[]", "NextIdBenchmark.cosIdSegmentChain[]",
				"NextIdBenchmark.crid[memory]", "NextIdBenchmark.crid[delayed]", "NextIdBenchmark.crid[postgresql]",
				"NextIdBenchmark.randomUuid[]", "NextIdBenchmark.tsid[]", "NextIdBenchmark.uuidV7[]",
				"PacedNextIdBenchmark.atomicLong[]", "PacedNextIdBenchmark.crid[memory]", "PacedNextIdBenchmark.crid[delayed]",
				"PacedNextIdBenchmark.crid[postgresql]", "RegistryAllocationBenchmark.allocate[postgresql]",
				"RegistryAllocationBenchmark.allocate[mariadb]", "RegistryAllocationBenchmark.plainUpsert[postgresql]",
				"RegistryAllocationBenchmark.plainUpsert[mariadb]", "JpaInsertBenchmark.insert[crid]",
				"JpaInsertBenchmark.insert[sequence]", "JpaInsertBenchmark.insert[identity]",
				"JpaInsertBenchmark.insert[uuid]");
	}

}
