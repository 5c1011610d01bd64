package dev.crid.jdbc;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowCallbackHandler;

import dev.crid.CridLayout;
import dev.crid.testsupport.FaultProxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

/**
 * A real failover under load: a PostgreSQL primary and a streaming standby of their own
 * ({@link PostgreSqlCluster}), two worker JVMs ({@link IssuingWorker}, one node each, one
 * with a runway of 10 s and one without) on the pair's multi-host URL, the primary killed
 * as a crash kills it and the standby promoted. With synchronous replication no
 * reservation a node was given is lost (a commit the crash interrupted while it waited
 * for the standby may be on the old primary only: its caller got an error) and no ID
 * repeats; the node with a runway serves on through the failover, the other waits for it.
 * With asynchronous replication and the standby behind (its stream cut for 2 s before the
 * crash), reservations the primary committed are lost, and still no ID repeats because
 * the failover took longer than two seconds and the clocks' skew (one machine), and a
 * node serves no block answered once the second after its own had ended: every block
 * served after the promotion is of a later second than the lost ones. Each test prints
 * its figures.
 */
class PostgreSqlFailoverIntegrationTest {

	private static final String TABLE = "crid_failover";

	/** Per thread, two threads per worker: 40,000 IDs a second in all. */
	private static final int IDS_PER_SECOND = 10_000;

	private static final Duration RUN = Duration.ofSeconds(30);

	private static final Duration RUNWAY = Duration.ofSeconds(10);

	/**
	 * How long after the crash the standby is promoted: beyond the two seconds (and the
	 * clocks' skew, none on one machine) from which no node serves a block of a second
	 * whose reservations the failover may have lost.
	 */
	private static final Duration UNTIL_PROMOTED = Duration.ofSeconds(2);

	/**
	 * The index of the failed calls of a thread after its first ID in a worker's status:
	 * a start-up on a loaded machine may fail calls while the first connection is made.
	 */
	private static final int LATER_FAILURES = 3;

	/** The index of the calls that waited for the registry in a worker's status. */
	private static final int STALLS = 6;

	/**
	 * A pause in milliseconds that a node waiting for the failover makes: its blocks last
	 * less than half a second, the failover more than two seconds.
	 */
	private static final long PAUSE_OF_A_WAIT = 250;

	@TempDir
	Path directory;

	@BeforeAll
	static void serverBinaries() {
		assumeThat(PostgreSqlCluster.binaries()).as("PostgreSQL server binaries under /usr/lib/postgresql").isNotNull();
	}

	@Test
	void withSynchronousReplicationAFailoverLosesNoReservationAndRepeatsNoId() throws Exception {
		try (PostgreSqlCluster cluster = PostgreSqlCluster.start(true, (port) -> port)) {
			Failover failover = run(cluster, () -> {
			});
			Map<Long, Long> lost = lostReservations(cluster);
			System.out.printf("failover, synchronous replication: %s; reservations the old primary holds beyond the "
					+ "promoted standby: %s%n", failover, lost);
			// A commit the crash interrupted while it waited for the standby is on the
			// old
			// primary only; its caller got an error, so no node holds its block.
			assertThat(failover.idsBeyondThePromoted()).as("IDs issued from reservations the promoted standby lacks")
				.isZero();
			failover.assertNoRepeatAndTheRunwayRodeItOut();
		}
	}

	@Test
	void withAsynchronousReplicationAFailoverSlowerThanASecondLosesReservationsButRepeatsNoId() throws Exception {
		FaultProxy[] replication = new FaultProxy[1];
		try (PostgreSqlCluster cluster = PostgreSqlCluster.start(false, (port) -> {
			replication[0] = FaultProxy.inFrontOf(port);
			return replication[0].port();
		}); FaultProxy stream = replication[0]) {
			Failover failover = run(cluster, () -> {
				stream.blackHole(); // the standby falls behind: it hears nothing more
									// from the primary
				TimeUnit.SECONDS.sleep(2);
			});
			Map<Long, Long> lost = lostReservations(cluster);
			System.out.printf(
					"failover, asynchronous replication, standby 2 s behind: %s; reservations lost: %d "
							+ "seconds, %,d sequence numbers%n",
					failover, lost.size(), lost.values().stream().mapToLong(Long::longValue).sum());
			assertThat(lost).as("reservations the promoted standby lacks").isNotEmpty();
			failover.assertNoRepeatAndTheRunwayRodeItOut();
		}
	}

	/**
	 * Creates the table, starts the workers, lets them issue, runs {@code beforeCrash},
	 * kills the primary, promotes the standby {@link #UNTIL_PROMOTED} later, and waits
	 * for the workers to end.
	 */
	private Failover run(PostgreSqlCluster cluster, Step beforeCrash) throws Exception {
		try (HikariDataSource primary = dataSource(cluster.primaryUrl())) {
			JdbcTemplateRegistry.builder(new JdbcTemplate(primary)).tableName(TABLE).build().ensureSchema();
		}
		Worker plain = new Worker("without-runway", Duration.ZERO);
		Worker withRunway = new Worker("with-runway", RUNWAY);
		List<Worker> workers = List.of(plain, withRunway);
		for (Worker worker : workers) {
			worker.start(cluster.jdbcUrl());
		}
		try {
			// Long enough for the node with a runway to have measured its rate over a
			// whole
			// runway, its window, and stocked the IDs of it: the runway and 2 s at a
			// worker's rate.
			long enough = (RUNWAY.toSeconds() + 2) * 2L * IDS_PER_SECOND;
			try {
				await().atMost(RUN).until(() -> workers.stream().allMatch((worker) -> worker.status()[0] > enough));
			}
			catch (ConditionTimeoutException ex) {
				throw new AssertionError("The workers did not each issue " + enough + " IDs within " + RUN + ": "
						+ workers.stream()
							.map((worker) -> worker.name + " " + Arrays.toString(worker.status()))
							.collect(Collectors.joining(", "))
						+ " (issued, failures, longest call ms, failures after a first ID, longest pause ms, "
						+ "longest stall of the JVM ms, calls that waited for the registry)", ex);
			}
			beforeCrash.run();
			long[] stallsBefore = workers.stream().mapToLong((worker) -> worker.status()[STALLS]).toArray();
			long crashed = System.nanoTime();
			cluster.killPrimary();
			TimeUnit.MILLISECONDS.sleep(UNTIL_PROMOTED.toMillis());
			cluster.promoteStandby();
			Duration failover = Duration.ofNanos(System.nanoTime() - crashed);
			for (Worker worker : workers) {
				assertThat(worker.process.waitFor(RUN.toSeconds() + 30, TimeUnit.SECONDS)).as(worker.name + " ended")
					.isTrue();
				assertThat(worker.process.exitValue()).as(worker.name + " exit status").isZero();
				Files.readAllLines(worker.log)
					.stream()
					.filter((line) -> line.startsWith("failure"))
					.forEach((line) -> System.out.println(worker.name + ": " + line));
			}
			List<Path> ids = List.of(plain.ids, withRunway.ids);
			long[] counted = WorkerProcesses.countDuplicates(ids, this.directory, 8_000_000);
			long[] plainStatus = plain.status();
			long[] runwayStatus = withRunway.status();
			return new Failover(failover, counted[0], counted[1], idsBeyond(reservations(cluster.standbyUrl()), ids),
					plainStatus, runwayStatus, plainStatus[STALLS] - stallsBefore[0],
					runwayStatus[STALLS] - stallsBefore[1]);
		}
		finally {
			workers.forEach((worker) -> worker.process.destroyForcibly());
		}
	}

	/**
	 * Starts the killed primary on its own (it recovers what it committed) and returns,
	 * by second, how many sequence numbers it reserved beyond what the promoted standby
	 * knows of.
	 */
	private static Map<Long, Long> lostReservations(PostgreSqlCluster cluster) throws Exception {
		cluster.restartOldPrimary();
		Map<Long, Long> promoted = reservations(cluster.standbyUrl());
		Map<Long, Long> lost = new HashMap<>();
		reservations(cluster.primaryUrl()).forEach((second, next) -> {
			long known = promoted.getOrDefault(second, 0L);
			if (next > known) {
				lost.put(second, next - known);
			}
		});
		return lost;
	}

	/** Returns, by second, the next sequence number a server's table would hand out. */
	private static Map<Long, Long> reservations(String url) {
		Map<Long, Long> next = new HashMap<>();
		try (HikariDataSource server = dataSource(url)) {
			new JdbcTemplate(server).query("SELECT ts, next_seq FROM " + TABLE,
					(RowCallbackHandler) (row) -> next.put(row.getLong(1), row.getLong(2)));
		}
		return next;
	}

	/**
	 * Counts the IDs of the files whose sequence number is not below what the table
	 * reserved of their second: IDs from a block that the table has lost.
	 */
	private static long idsBeyond(Map<Long, Long> reserved, List<Path> files) throws IOException {
		int sequenceBits = CridLayout.DEFAULT.sequenceBits();
		long beyond = 0;
		for (long id : WorkerProcesses.readAll(files)) {
			if ((id & ((1L << sequenceBits) - 1)) >= reserved.getOrDefault(id >>> sequenceBits, 0L)) {
				beyond++;
			}
		}
		return beyond;
	}

	private static HikariDataSource dataSource(String url) {
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(url);
		config.setUsername("postgres");
		config.setMaximumPoolSize(1);
		return new HikariDataSource(config);
	}

	@FunctionalInterface
	private interface Step {

		void run() throws Exception;

	}

	/** One worker JVM with one node and two threads, and the files it writes. */
	private final class Worker {

		final String name;

		final Duration runway;

		final Path ids;

		final Path log;

		Process process;

		Worker(String name, Duration runway) {
			this.name = name;
			this.runway = runway;
			this.ids = PostgreSqlFailoverIntegrationTest.this.directory.resolve(name + ".bin");
			this.log = PostgreSqlFailoverIntegrationTest.this.directory.resolve(name + ".log");
		}

		void start(String url) throws Exception {
			this.process = WorkerProcesses.start(IssuingWorker.class, "256m",
					List.of(url, "postgres", "", TABLE, String.valueOf(this.name.hashCode()), "1", "2", "1", "100",
							String.valueOf(RUN.toMillis()), this.ids.toString(), String.valueOf(this.runway.toMillis()),
							String.valueOf(IDS_PER_SECOND)),
					this.log);
		}

		/**
		 * Issued, failures, longest call (ms), failures after a thread's first ID,
		 * longest pause (ms), longest stall of the JVM (ms), calls that waited for the
		 * registry.
		 */
		long[] status() {
			try {
				return WorkerProcesses.lastStatus(this.log);
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}

	}

	/**
	 * What a failover cost the two workers: the IDs issued from reservations the promoted
	 * standby lacks, and the calls of each worker that waited for the registry from the
	 * last status before the crash to the end.
	 */
	private record Failover(Duration killToPromoted, long ids, long duplicates, long idsBeyondThePromoted, long[] plain,
			long[] withRunway, long plainWaited, long runwayWaited) {

		void assertNoRepeatAndTheRunwayRodeItOut() {
			assertThat(this.ids).as("IDs issued").isGreaterThan(RUN.toSeconds() * IDS_PER_SECOND);
			assertThat(this.duplicates).as("IDs issued twice").isZero();
			// The node with a runway served every call from its stock: none failed and
			// none waited for the registry, however long a loaded machine held its
			// threads up.
			assertThat(this.withRunway[LATER_FAILURES]).as("failed calls of the node with a runway after its first ID")
				.isZero();
			assertThat(this.runwayWaited)
				.as("calls of the node with a runway that waited for the registry after the crash")
				.isZero();
			// The node without one ran out of blocks and waited for the new primary
			// (about the two seconds between the crash and the promotion, less at most
			// two blocks of up to 6,400 IDs at 20,000 a second) within its allocation
			// timeout (5 s, the default).
			assertThat(this.plain[LATER_FAILURES]).as("failed calls of the node without a runway after its first ID")
				.isZero();
			assertThat(this.plainWaited)
				.as("calls of the node without a runway that waited for the registry after the crash")
				.isPositive();
			assertThat(this.plain[4]).as("longest pause of the node without a runway (ms)")
				.isGreaterThanOrEqualTo(PAUSE_OF_A_WAIT);
		}

		@Override
		public String toString() {
			return String.format("kill to promoted %d ms; without a runway: %,d IDs, %d failed calls (%d after a "
					+ "first ID), %d calls waited after the crash, IDs again after %d ms (longest stall %d ms); with a "
					+ "runway of %s: %,d IDs, %d failed calls (%d after a first ID), %d calls waited after the crash, "
					+ "longest pause %d ms (longest stall %d ms); %d duplicates, %,d IDs from reservations the promoted "
					+ "standby lacks", this.killToPromoted.toMillis(), this.plain[0], this.plain[1],
					this.plain[LATER_FAILURES], this.plainWaited, this.plain[4], this.plain[5], RUNWAY,
					this.withRunway[0], this.withRunway[1], this.withRunway[LATER_FAILURES], this.runwayWaited,
					this.withRunway[4], this.withRunway[5], this.duplicates, this.idsBeyondThePromoted);
		}

	}

}
