package dev.crid.jdbc;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.crid.testsupport.FaultProxy;
import dev.crid.testsupport.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * A long run under every fault at once, not part of the normal build: four JVMs
 * ({@link IssuingWorker}) issue IDs from one registry table through a {@link FaultProxy},
 * while the test puts faults in place in cycles (a cut, refused connections, a flapping
 * link, a black hole) and, in every cycle, kills one of the workers with {@code SIGKILL}
 * in the middle of the fault and starts it again at once (so it starts while the database
 * cannot be reached). It goes on until the workers have written at least
 * {@code crid.soak.ids} IDs (default 10^8) and at least {@code crid.soak.min-cycles}
 * cycles (default 16, four of each fault) have passed, then stops the workers, and proves
 * that not one ID repeats among everything they wrote (partitioned on disk by a hash of
 * the ID and sorted one partition at a time, so the heap stays bounded however many IDs
 * the workers wrote: they write about three million a second on a two-core machine). It
 * prints a table: fault cycles, kills, IDs, duplicates, failed calls, longest call,
 * duration.
 *
 * <p>
 * Run with {@code ./mvnw -B -pl crid-jdbc -am verify -Psoak -Dtest='*SoakIntegrationTest'
 * -Dsurefire.failIfNoSpecifiedTests=false -DskipITs} (both databases, one after the
 * other; {@code -Dtest} keeps the other modules' tests out of the run).
 */
public abstract class AbstractSoakIntegrationTest {

	private static final int WORKERS = 4;

	private static final long TARGET_IDS = Long.getLong("crid.soak.ids", 100_000_000L);

	private static final int MIN_CYCLES = Integer.getInteger("crid.soak.min-cycles", 16);

	private static final Duration MAX_DURATION = Duration.ofMinutes(Long.getLong("crid.soak.max-minutes", 40L));

	/**
	 * Longer than the workers' allocation timeout (the default, 5 s) for the cut and the
	 * black hole.
	 */
	private static final Duration FAULT = Duration.ofSeconds(6);

	private static final Duration HEALTHY = Duration.ofSeconds(6);

	/**
	 * IDs sorted at once in the duplicate check: 256 MB, whatever the run wrote in total.
	 */
	private static final int PARTITION_SIZE = 32_000_000;

	private static final String[] FAULTS = { "cut", "refuse", "flap", "black hole" };

	@TempDir
	Path directory;

	private final List<Path> files = new ArrayList<>();

	private final List<Path> logs = new ArrayList<>();

	/**
	 * Returns the database the workers share.
	 * @return the database
	 */
	protected abstract TestDatabase database();

	@Test
	void workersUnderFaultsAndKillsNeverIssueTheSameId() throws Exception {
		TestDatabase.Endpoint endpoint = database().endpoint();
		String table = "crid_" + getClass().getSimpleName().replace("IntegrationTest", "").toLowerCase() + "_"
				+ ProcessHandle.current().pid();
		Map<String, Integer> cycles = new LinkedHashMap<>();
		int kills = 0;
		long started = System.nanoTime();
		try (HikariDataSource dataSource = database().dataSource(2);
				FaultProxy proxy = FaultProxy.inFrontOf(database())) {
			JdbcTemplateRegistry.builder(new JdbcTemplate(dataSource)).tableName(table).build().ensureSchema();
			Process[] workers = new Process[WORKERS];
			try {
				for (int w = 0; w < WORKERS; w++) {
					workers[w] = start(proxy, endpoint, table, w);
				}
				int cycle = 0;
				while (cycle < MIN_CYCLES || written() < TARGET_IDS) {
					if (System.nanoTime() - started > MAX_DURATION.toNanos()) {
						fail("only " + written() + " IDs after " + MAX_DURATION + " (" + cycle + " cycles)");
					}
					String fault = FAULTS[cycle % FAULTS.length];
					int victim = cycle % WORKERS;
					switch (fault) {
						case "cut" -> proxy.cut();
						case "refuse" -> proxy.refuse();
						case "black hole" -> proxy.blackHole();
						default -> {
						}
					}
					long faultEnds = System.nanoTime() + FAULT.toNanos();
					long killAt = System.nanoTime() + FAULT.toNanos() / 2;
					boolean killed = false;
					boolean cutNow = false;
					while (System.nanoTime() - faultEnds < 0) {
						if (fault.equals("flap")) {
							// Half a second cut, half a second healed.
							cutNow = !cutNow;
							if (cutNow) {
								proxy.cut();
							}
							else {
								proxy.heal();
							}
						}
						if (!killed && System.nanoTime() - killAt >= 0) {
							workers[victim].destroyForcibly();
							assertThat(workers[victim].waitFor(10, TimeUnit.SECONDS)).as("worker %d died", victim)
								.isTrue();
							assertThat(workers[victim].exitValue()).as("exit status of a killed worker").isEqualTo(137);
							workers[victim] = start(proxy, endpoint, table, victim);
							kills++;
							killed = true;
						}
						TimeUnit.MILLISECONDS.sleep(500);
					}
					proxy.heal();
					cycles.merge(fault, 1, Integer::sum);
					cycle++;
					TimeUnit.NANOSECONDS.sleep(HEALTHY.toNanos());
					System.out.printf("soak %s: cycle %d (%s) done, %,d IDs written%n", database(), cycle, fault,
							written());
				}
			}
			finally {
				for (Process worker : workers) {
					if (worker != null) {
						worker.destroy();
						if (!worker.waitFor(30, TimeUnit.SECONDS)) {
							worker.destroyForcibly();
						}
					}
				}
				TestDatabase.dropRegistryTables(dataSource, table);
			}
		}
		Duration took = Duration.ofNanos(System.nanoTime() - started);
		long failures = 0;
		long longestCall = 0;
		for (Path log : this.logs) {
			long[] status = WorkerProcesses.lastStatus(log);
			failures += status[1];
			longestCall = Math.max(longestCall, status[2]);
		}
		long checkStarted = System.nanoTime();
		long[] counted = WorkerProcesses.countDuplicates(this.files, this.directory, PARTITION_SIZE);
		long ids = counted[0];
		long duplicates = counted[1];
		Duration check = Duration.ofNanos(System.nanoTime() - checkStarted);
		String result = String.join("\n", "soak result, " + database() + ", " + WORKERS + " worker JVMs",
				String.format("  fault cycles     %d %s", cycles.values().stream().mapToInt(Integer::intValue).sum(),
						cycles),
				String.format("  kills            %d (SIGKILL, exit 137, started again at once)", kills),
				String.format("  IDs              %,d", ids), String.format("  duplicates       %d", duplicates),
				String.format("  failed calls     %,d", failures),
				String.format("  longest call     %,d ms", longestCall),
				String.format("  duration         %d s, and %d s for the duplicate check", took.toSeconds(),
						check.toSeconds()));
		System.out.println(result);
		assertThat(ids).as("IDs written").isGreaterThanOrEqualTo(TARGET_IDS);
		assertThat(duplicates).as("IDs issued twice").isZero();
	}

	private long written() throws IOException {
		long total = 0;
		for (Path file : this.files) {
			total += WorkerProcesses.count(file);
		}
		return total;
	}

	private Process start(FaultProxy proxy, TestDatabase.Endpoint endpoint, String table, int worker)
			throws IOException {
		String name = "worker-" + worker + "-" + this.files.size();
		Path file = this.directory.resolve(name + ".bin");
		Path log = this.directory.resolve(name + ".log");
		this.files.add(file);
		this.logs.add(log);
		return WorkerProcesses.start(IssuingWorker.class, "256m",
				List.of(proxy.jdbcUrl(), endpoint.username(), endpoint.password(), table,
						String.valueOf(31L * this.files.size() + 7), "2", "2", "100", "5000",
						String.valueOf(Duration.ofHours(2).toMillis()), file.toString()),
				log);
	}

}
