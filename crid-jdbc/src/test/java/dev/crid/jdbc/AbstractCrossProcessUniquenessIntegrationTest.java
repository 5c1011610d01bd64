package dev.crid.jdbc;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowCallbackHandler;

import dev.crid.CridLayout;
import dev.crid.testsupport.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Uniqueness across processes: several JVMs, each with its own connection pool, nodes and
 * threads, take small blocks (1 to 100 sequence numbers) from one registry table, so they
 * contend for the same rows; together they issue a million IDs, and not one may repeat.
 * One subclass per database.
 */
public abstract class AbstractCrossProcessUniquenessIntegrationTest {

	private static final int PROCESSES = 4;

	private static final int IDS_PER_PROCESS = 250_000;

	private static final int NODES_PER_PROCESS = 3;

	private static final int THREADS_PER_NODE = 2;

	@TempDir
	Path directory;

	/**
	 * Returns the database the processes share.
	 * @return the database
	 */
	protected abstract TestDatabase database();

	@Test
	void processesSharingOneTableNeverIssueTheSameId() throws Exception {
		TestDatabase.Endpoint endpoint = database().endpoint();
		String table = "crid_" + getClass().getSimpleName().replace("IntegrationTest", "").toLowerCase() + "_"
				+ ProcessHandle.current().pid();
		try (HikariDataSource dataSource = database().dataSource(2)) {
			JdbcTemplate jdbcTemplate = new JdbcTemplate(dataSource);
			JdbcTemplateRegistry.builder(jdbcTemplate).tableName(table).build().ensureSchema();
			try {
				long started = System.nanoTime();
				List<Process> processes = new ArrayList<>();
				for (int p = 0; p < PROCESSES; p++) {
					processes.add(start(endpoint, table, p));
				}
				for (int p = 0; p < PROCESSES; p++) {
					Process process = processes.get(p);
					if (!process.waitFor(90, TimeUnit.SECONDS)) {
						processes.forEach(Process::destroyForcibly);
						fail("process " + p + " did not finish within 90 s; its log: " + log(p));
					}
					assertThat(process.exitValue()).as("exit status of process %d; its log: %s", p, log(p)).isZero();
				}
				Duration took = Duration.ofNanos(System.nanoTime() - started);
				long[][] idsByProcess = new long[PROCESSES][];
				for (int p = 0; p < PROCESSES; p++) {
					idsByProcess[p] = read(this.directory.resolve("ids-" + p + ".bin"), IDS_PER_PROCESS);
				}
				assertNoDuplicates(idsByProcess);
				assertEveryIdIsInAReservedBlock(idsByProcess, jdbcTemplate, table);
				assertProcessesSharedSeconds(idsByProcess);
				System.out.println(getClass().getSimpleName() + ": " + PROCESSES * IDS_PER_PROCESS + " IDs from "
						+ PROCESSES + " processes in " + took.toMillis() + " ms, no duplicates");
				for (int p = 0; p < PROCESSES; p++) {
					System.out.println("process " + p + ":\n" + log(p).strip());
				}
			}
			finally {
				TestDatabase.dropRegistryTables(jdbcTemplate.getDataSource(), table);
			}
		}
	}

	private Process start(TestDatabase.Endpoint endpoint, String table, int index) throws IOException {
		return WorkerProcesses.start(UniquenessWorker.class, "256m",
				List.of(endpoint.url(), endpoint.username(), endpoint.password(), table,
						String.valueOf(31L * index + 7), String.valueOf(NODES_PER_PROCESS),
						String.valueOf(THREADS_PER_NODE), String.valueOf(IDS_PER_PROCESS),
						this.directory.resolve("ids-" + index + ".bin").toString()),
				this.directory.resolve("process-" + index + ".log"));
	}

	private String log(int index) {
		try {
			return Files.readString(this.directory.resolve("process-" + index + ".log"));
		}
		catch (IOException ex) {
			return "(no log: " + ex + ")";
		}
	}

	private static long[] read(Path file, int count) throws IOException {
		assertThat(file).hasSize((long) count * Long.BYTES);
		long[] ids = new long[count];
		try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 16))) {
			for (int i = 0; i < count; i++) {
				ids[i] = in.readLong();
			}
		}
		return ids;
	}

	private static void assertNoDuplicates(long[][] idsByProcess) {
		long[] all = Arrays.stream(idsByProcess).flatMapToLong(Arrays::stream).sorted().toArray();
		assertThat(all).hasSize(PROCESSES * IDS_PER_PROCESS);
		for (int i = 1; i < all.length; i++) {
			if (all[i] == all[i - 1]) {
				fail("ID " + all[i] + " was issued twice");
			}
		}
	}

	private static void assertEveryIdIsInAReservedBlock(long[][] idsByProcess, JdbcTemplate jdbcTemplate,
			String table) {
		Map<Long, Long> nextSequences = new HashMap<>();
		RowCallbackHandler collect = (row) -> nextSequences.put(row.getLong(1), row.getLong(2));
		jdbcTemplate.query("SELECT ts, next_seq FROM " + table, collect);
		CridLayout layout = CridLayout.DEFAULT;
		for (long[] ids : idsByProcess) {
			for (long id : ids) {
				long timestamp = layout.timestampOf(id);
				assertThat(nextSequences).containsKey(timestamp);
				if (layout.sequenceOf(id) >= nextSequences.get(timestamp)) {
					fail("ID " + id + " has sequence " + layout.sequenceOf(id)
							+ " beyond what the registry reserved for " + timestamp + " ("
							+ nextSequences.get(timestamp) + ")");
				}
			}
		}
	}

	private static void assertProcessesSharedSeconds(long[][] idsByProcess) {
		Map<Long, Integer> processesBySecond = new HashMap<>();
		for (int p = 0; p < idsByProcess.length; p++) {
			int bit = 1 << p;
			for (long id : idsByProcess[p]) {
				processesBySecond.merge(CridLayout.DEFAULT.timestampOf(id), bit, (a, b) -> a | b);
			}
		}
		assertThat(processesBySecond.values()).as("seconds in which several processes took blocks")
			.anyMatch((processes) -> Integer.bitCount(processes) > 1);
	}

}
