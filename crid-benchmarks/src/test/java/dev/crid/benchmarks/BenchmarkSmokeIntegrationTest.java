package dev.crid.benchmarks;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;

import com.zaxxer.hikari.HikariDataSource;
import dev.crid.testsupport.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Runs every benchmark once, in this JVM and briefly, so that a change that breaks one —
 * in its code, its JMH annotations or the database it needs — fails the build instead of
 * the next benchmark run. The figures mean nothing; only that every benchmark and
 * parameter produced a positive score, and that the benchmarks dropped every table they
 * created. They run in a PostgreSQL schema and a MariaDB database of this run's own
 * (builds on the same servers may run at the same time, with the same table names), which
 * the test drops afterwards. The virtual thread benchmarks run only on Java 21 or later
 * (run the tests there with {@code -Djvm=<its bin/java>}); on an older Java they must
 * refuse clearly.
 */
class BenchmarkSmokeIntegrationTest {

	/** The parameters that name a variant; the others only size the work. */
	private static final Set<String> VARIANTS = Set.of("registry", "database", "strategy");

	private static final List<TestDatabase> DATABASES = List.of(TestDatabase.POSTGRESQL, TestDatabase.MARIADB);

	/**
	 * The PostgreSQL schema and the MariaDB database the benchmarks create their tables
	 * in.
	 */
	private static final String RUN = "crid_bench_run_"
			+ Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 16);

	private static final Map<TestDatabase, String> urls = new EnumMap<>(TestDatabase.class);

	@BeforeAll
	static void pointBenchmarksAtTestDatabases() throws SQLException {
		TestDatabase.Endpoint postgresql = TestDatabase.POSTGRESQL.endpoint();
		TestDatabase.Endpoint mariadb = TestDatabase.MARIADB.endpoint();
		execute(TestDatabase.POSTGRESQL, "CREATE SCHEMA " + RUN);
		execute(TestDatabase.MARIADB, "CREATE DATABASE " + RUN);
		urls.put(TestDatabase.POSTGRESQL,
				postgresql.url() + (postgresql.url().contains("?") ? "&" : "?") + "currentSchema=" + RUN);
		urls.put(TestDatabase.MARIADB, withDatabase(mariadb.url(), RUN));
		use("postgresql", postgresql, urls.get(TestDatabase.POSTGRESQL));
		use("mariadb", mariadb, urls.get(TestDatabase.MARIADB));
	}

	@AfterAll
	static void dropWhatThisRunCreated() throws SQLException {
		execute(TestDatabase.POSTGRESQL, "DROP SCHEMA IF EXISTS " + RUN + " CASCADE");
		execute(TestDatabase.MARIADB, "DROP DATABASE IF EXISTS " + RUN);
	}

	private static void execute(TestDatabase database, String sql) throws SQLException {
		try (HikariDataSource dataSource = database.dataSource(1);
				Connection connection = dataSource.getConnection();
				Statement statement = connection.createStatement()) {
			statement.execute(sql);
		}
	}

	/** Returns a JDBC URL with its database (the last segment of its path) replaced. */
	private static String withDatabase(String url, String database) {
		int query = url.indexOf('?');
		String path = (query < 0) ? url : url.substring(0, query);
		return path.substring(0, path.lastIndexOf('/') + 1) + database + ((query < 0) ? "" : url.substring(query));
	}

	private static void use(String name, TestDatabase.Endpoint endpoint, String url) {
		System.setProperty("crid.benchmarks." + name + ".url", url);
		System.setProperty("crid.benchmarks." + name + ".username", endpoint.username());
		System.setProperty("crid.benchmarks." + name + ".password", endpoint.password());
	}

	@Test
	void everyBenchmarkProducesAScoreAndDropsItsTables() throws RunnerException, SQLException {
		boolean virtualThreads = Runtime.version().feature() >= 21;
		ChainedOptionsBuilder options = new OptionsBuilder().include(NextIdBenchmark.class.getName())
			.include(PacedNextIdBenchmark.class.getName())
			.include(BulkIdsBenchmark.class.getName())
			.include(RegistryAllocationBenchmark.class.getName())
			.include(JpaInsertBenchmark.class.getName())
			.include(JpaPairedInsertBenchmark.class.getName())
			.include(PlainUserBenchmark.class.getName());
		if (virtualThreads) {
			options.include(VirtualThreadsBenchmark.class.getName());
		}
		options.param("registry", "memory", "delayed", "postgresql")
			.param("rows", "200")
			.param("rowsPerTransaction", "100")
			.forks(0)
			.threads(1)
			.warmupIterations(0)
			// two, so that the paired JPA benchmark inserts with both of its strategies
			.measurementIterations(2)
			.measurementTime(TimeValue.milliseconds(100))
			.shouldFailOnError(true)
			.verbosity(VerboseMode.SILENT);
		// JMH allows one run per machine through a lock file; a benchmark run beside the
		// build must not fail it.
		System.setProperty("jmh.ignoreLock", "true");
		Collection<RunResult> results = new Runner(options.build()).run();
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
		assertThat(scores).containsOnlyKeys(expected(virtualThreads));
		assertThat(scores).allSatisfy((name, score) -> assertThat(score).as(name).isPositive());
		for (TestDatabase database : DATABASES) {
			TestDatabase.Endpoint endpoint = database.endpoint();
			try (Connection connection = DriverManager.getConnection(urls.get(database), endpoint.username(),
					endpoint.password())) {
				assertThat(tables(connection)).as("tables left in %s of %s", RUN, database).isEmpty();
			}
		}
	}

	/**
	 * Returns the tables in the connection's own schema (PostgreSQL) or database
	 * (MariaDB).
	 */
	private static List<String> tables(Connection connection) throws SQLException {
		List<String> tables = new ArrayList<>();
		try (ResultSet result = connection.getMetaData()
			.getTables(connection.getCatalog(), connection.getSchema(), "%", new String[] { "TABLE" })) {
			while (result.next()) {
				tables.add(result.getString("TABLE_NAME"));
			}
		}
		return tables;
	}

	@Test
	@EnabledForJreRange(max = JRE.JAVA_20)
	void virtualThreadBenchmarksSayWhatTheyNeedOnAnOlderJava() {
		assertThatIllegalStateException().isThrownBy(VirtualThreads::newVirtualThreadPerTaskExecutor)
			.withMessageContaining("need Java 21 or later")
			.withMessageContaining("JAVA_VIRTUAL_THREADS");
	}

	private static List<String> expected(boolean virtualThreads) {
		List<String> expected = new ArrayList<>(List.of("NextIdBenchmark.atomicLong[]",
				"NextIdBenchmark.cosIdSegmentChain[]", "NextIdBenchmark.crid[memory]", "NextIdBenchmark.crid[delayed]",
				"NextIdBenchmark.crid[postgresql]", "NextIdBenchmark.randomUuid[]", "NextIdBenchmark.tsid[]",
				"NextIdBenchmark.uuidV7[]", "PacedNextIdBenchmark.atomicLong[]", "PacedNextIdBenchmark.crid[memory]",
				"PacedNextIdBenchmark.crid[delayed]", "PacedNextIdBenchmark.crid[postgresql]",
				"BulkIdsBenchmark.nextIds[memory]", "BulkIdsBenchmark.nextIds[delayed]",
				"BulkIdsBenchmark.nextIds[postgresql]", "BulkIdsBenchmark.nextIdLoop[memory]",
				"BulkIdsBenchmark.nextIdLoop[delayed]", "BulkIdsBenchmark.nextIdLoop[postgresql]",
				"RegistryAllocationBenchmark.allocate[postgresql]", "RegistryAllocationBenchmark.allocate[mariadb]",
				"RegistryAllocationBenchmark.plainUpsert[postgresql]",
				"RegistryAllocationBenchmark.plainUpsert[mariadb]", "JpaInsertBenchmark.insert[crid]",
				"JpaInsertBenchmark.insert[sequence]", "JpaInsertBenchmark.insert[identity]",
				"JpaInsertBenchmark.insert[uuid]", "JpaInsertBenchmark.insert[assigned]",
				"JpaPairedInsertBenchmark.insert[crid]", "PlainUserBenchmark.crid[]",
				"PlainUserBenchmark.atomicLong[]"));
		if (virtualThreads) {
			expected.addAll(List.of("VirtualThreadsBenchmark.atomicLong[]", "VirtualThreadsBenchmark.crid[]",
					"VirtualThreadsBenchmark.cridRegistryNotInMemory[memory]",
					"VirtualThreadsBenchmark.cridRegistryNotInMemory[delayed]",
					"VirtualThreadsBenchmark.cridRegistryNotInMemory[postgresql]"));
		}
		return expected;
	}

}
