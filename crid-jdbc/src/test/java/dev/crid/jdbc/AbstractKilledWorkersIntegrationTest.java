package dev.crid.jdbc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.crid.CridNode;
import dev.crid.testsupport.TestDatabase;
import dev.crid.testsupport.FaultLoad;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

/**
 * Processes killed mid-run and started again: six JVMs issue IDs from one registry table
 * with small blocks (1 to 100 sequence numbers, so they contend for the same rows); three
 * are killed with {@code SIGKILL} ({@link Process#destroyForcibly()}) while they issue,
 * mid-block and perhaps mid-reservation, and started again. Proves that the kills
 * happened (exit status 137), that both the killed processes and their restarts issued
 * IDs, that no call of any process failed once its thread had an ID, or took longer than
 * the allocation timeout (a kill ends its connections at once, so the database holds no
 * lock of the dead process for long), that every process not killed exited with status 0
 * (an {@link IssuingWorker} thread that ended on an unexpected exception makes it exit
 * with {@value IssuingWorker#UNEXPECTED_EXIT}), and that not one ID repeats among
 * everything every process wrote. An ID a killed process issued but had not yet written
 * is lost to the check, which is fine: what it looks for is duplicates. One subclass per
 * database.
 */
public abstract class AbstractKilledWorkersIntegrationTest {

	private static final int PROCESSES = 6;

	private static final int KILLED = 3;

	/**
	 * How long a worker issues, from the end of its start-up: long enough that the ones
	 * to be killed are still running once every worker has issued (beside another build,
	 * a worker's first call waited out its 5 s allocation timeout for the pool's first
	 * connection, and one had ended before its kill with 8 s).
	 */
	private static final long RUN_MILLIS = 15_000;

	private static final long RESTARTED_RUN_MILLIS = 3_000;

	@TempDir
	Path directory;

	/**
	 * Returns the database the processes share.
	 * @return the database
	 */
	protected abstract TestDatabase database();

	@Test
	void processesKilledMidRunAndStartedAgainNeverIssueTheSameId() throws Exception {
		TestDatabase.Endpoint endpoint = database().endpoint();
		String table = "crid_" + getClass().getSimpleName().replace("IntegrationTest", "").toLowerCase() + "_"
				+ ProcessHandle.current().pid();
		try (HikariDataSource dataSource = database().dataSource(2)) {
			JdbcTemplateRegistry.builder(new JdbcTemplate(dataSource)).tableName(table).build().ensureSchema();
			List<Process> running = new ArrayList<>();
			try {
				long started = System.nanoTime();
				for (int p = 0; p < PROCESSES; p++) {
					running.add(start(endpoint, table, "ids-" + p, p, RUN_MILLIS));
				}
				await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100)).until(() -> {
					for (int p = 0; p < PROCESSES; p++) {
						if (WorkerProcesses.count(this.directory.resolve("ids-" + p + ".bin")) == 0) {
							return false;
						}
					}
					return true;
				});
				// Let them issue for a while: the kills land mid-run, not at start-up.
				TimeUnit.SECONDS.sleep(1);
				long[] writtenBeforeKill = new long[KILLED];
				for (int k = 0; k < KILLED; k++) {
					int p = 2 * k;
					Process victim = running.get(p);
					assertThat(victim.isAlive()).as("process %d still running when killed; its log: %s", p, log(p))
						.isTrue();
					victim.destroyForcibly();
					assertThat(victim.waitFor(10, TimeUnit.SECONDS)).as("process %d died", p).isTrue();
					assertThat(victim.exitValue()).as("exit status of killed process %d (128 + SIGKILL)", p)
						.isEqualTo(137);
					writtenBeforeKill[k] = WorkerProcesses.count(this.directory.resolve("ids-" + p + ".bin"));
					running.set(p,
							start(endpoint, table, "ids-" + p + "-restarted", p + PROCESSES, RESTARTED_RUN_MILLIS));
				}
				for (int p = 0; p < PROCESSES; p++) {
					Process process = running.get(p);
					if (!process.waitFor(90, TimeUnit.SECONDS)) {
						fail("process " + p + " did not finish within 90 s; its log: " + log(p));
					}
					assertThat(process.exitValue()).as("exit status of process %d; its log: %s", p, log(p)).isZero();
				}
				Duration took = Duration.ofNanos(System.nanoTime() - started);
				List<Path> files = new ArrayList<>();
				long restartedIds = 0;
				long failures = 0;
				long laterFailures = 0;
				long longestCall = 0;
				for (int p = 0; p < PROCESSES; p++) {
					files.add(this.directory.resolve("ids-" + p + ".bin"));
					boolean killed = p % 2 == 0 && p / 2 < KILLED;
					if (killed) {
						Path restarted = this.directory.resolve("ids-" + p + "-restarted.bin");
						files.add(restarted);
						restartedIds += WorkerProcesses.count(restarted);
						assertThat(WorkerProcesses.count(restarted)).as("IDs the restart of process %d issued", p)
							.isPositive();
					}
					for (String name : killed ? List.of("ids-" + p, "ids-" + p + "-restarted") : List.of("ids-" + p)) {
						long[] status = WorkerProcesses.lastStatus(this.directory.resolve(name + ".log"));
						failures += status[1];
						longestCall = Math.max(longestCall, status[2]);
						laterFailures += status[3];
					}
				}
				long[] counted = WorkerProcesses.countDuplicates(files, this.directory, 8_000_000);
				long ids = counted[0];
				long duplicates = counted[1];
				System.out.printf("killed workers, %s: %d processes, %d killed with SIGKILL (exit 137) after writing "
						+ "%s IDs and started again; IDs: %,d (restarts %,d), failed calls: %d, longest call: %d ms, "
						+ "duplicates: %d, in %d ms%n", database(), PROCESSES, KILLED,
						Arrays.toString(writtenBeforeKill), ids, restartedIds, failures, longestCall, duplicates,
						took.toMillis());
				assertThat(Arrays.stream(writtenBeforeKill).min().getAsLong()).as("fewest IDs a killed process wrote")
					.isPositive();
				assertThat(duplicates).as("IDs issued twice").isZero();
				// A start-up on a loaded machine may wait out the timeout for the pool's
				// first connection.
				assertThat(laterFailures)
					.as("failed calls of all processes after their threads' first IDs (%d in all)", failures)
					.isZero();
				assertThat(Duration.ofMillis(longestCall)).as("longest call of all processes")
					.isLessThanOrEqualTo(CridNode.DEFAULT_ALLOCATION_TIMEOUT.plus(FaultLoad.CALL_MARGIN));
			}
			finally {
				running.forEach(Process::destroyForcibly);
				TestDatabase.dropRegistryTables(dataSource, table);
			}
		}
	}

	private Process start(TestDatabase.Endpoint endpoint, String table, String name, int seed, long runMillis)
			throws IOException {
		return WorkerProcesses.start(IssuingWorker.class, "256m",
				List.of(endpoint.url(), endpoint.username(), endpoint.password(), table, String.valueOf(31L * seed + 7),
						"2", "2", "1", "100", String.valueOf(runMillis),
						this.directory.resolve(name + ".bin").toString()),
				this.directory.resolve(name + ".log"));
	}

	private String log(int index) {
		Path restarted = this.directory.resolve("ids-" + index + "-restarted.log");
		Path log = Files.exists(restarted) ? restarted : this.directory.resolve("ids-" + index + ".log");
		try {
			return Files.readString(log);
		}
		catch (IOException ex) {
			return "(no log: " + ex + ")";
		}
	}

}
