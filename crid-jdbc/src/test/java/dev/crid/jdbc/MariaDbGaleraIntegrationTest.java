package dev.crid.jdbc;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.crid.CridNode;
import dev.crid.RegistryException;
import dev.crid.testsupport.GaleraCluster;
import dev.crid.testsupport.GaleraWrites;
import dev.crid.testsupport.IdIssuer;
import dev.crid.testsupport.RecordingRegistry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The MariaDB registry on a 3-node Galera cluster of its own ({@link GaleraCluster}),
 * every member taking writes, with Galera's defaults ({@code wsrep_retry_autocommit} at
 * 1), each test in a table of its own:
 * <ul>
 * <li>eight nodes with blocks of 1 to 100 and no prefetching (so that they reserve often,
 * and at once), two on each member and two on pools over all three, two threads each:
 * every block the registries handed out is checked against every other of its second, and
 * no ID repeats (with {@code RETURNING}, as on a single server: 26 overlapping blocks in
 * 2,319, 228 repeated IDs);</li>
 * <li>an eviction on one member racing reservations of the evicted second on the other
 * two, as a node whose clock lags makes them: no block overlaps another, and once the
 * eviction is done every reserver is refused (without the watermark check: 1,651
 * overlapping blocks in 2,627);</li>
 * <li>last, as it leaves two members: three nodes on pools over all three members, at a
 * steady rate with prefetching, and one member killed with SIGKILL: no ID repeats, no
 * block overlaps, and every node reserves again through the others within
 * {@link #RECOVERY_BOUND}.</li>
 * </ul>
 * Each test prints what it measured.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MariaDbGaleraIntegrationTest {

	private static final Duration RUN = Duration.ofSeconds(5);

	private static final int EVICTION_ROUNDS = 10;

	private static final int BLOCKS_AFTER_EVICTION = 20;

	private static final long KILL_BLOCK_SIZE = 20;

	private static final int KILL_IDS_PER_SECOND = 1_000;

	/**
	 * How long after the kill every node must have reserved again. The other members go
	 * on once they have dropped the dead one from the cluster's view, after Galera's
	 * {@code evs.suspect_timeout} (5 s by default); measured 5.8-6.4 s.
	 */
	private static final Duration RECOVERY_BOUND = Duration.ofSeconds(15);

	private static GaleraCluster cluster;

	private final List<HikariDataSource> dataSources = new ArrayList<>();

	@BeforeAll
	static void startCluster() throws Exception {
		GaleraCluster.requireInstalled();
		cluster = GaleraCluster.start();
	}

	@AfterAll
	static void stopCluster() throws Exception {
		if (cluster != null) {
			cluster.close();
		}
	}

	@AfterEach
	void closeDataSources() {
		this.dataSources.forEach(HikariDataSource::close);
		this.dataSources.clear();
	}

	@Test
	@Order(0)
	void aRegistryOnAMemberReservesWithTheMySqlStatementAndSaysWhy() {
		JdbcTemplateRegistry registry = registry(cluster.url(0), "crid_galera_choice");
		List<String> messages = new CopyOnWriteArrayList<>();
		Handler recorder = new Handler() {

			@Override
			public void publish(LogRecord record) {
				messages.add(record.getLevel() + " " + record.getMessage());
			}

			@Override
			public void flush() {
			}

			@Override
			public void close() {
			}

		};
		Logger logger = Logger.getLogger(JdbcTemplateRegistry.class.getName());
		logger.addHandler(recorder);
		try {
			registry.ensureSchema();
			assertThat(registry.allocate(1, 10)).isZero();
		}
		finally {
			logger.removeHandler(recorder);
		}
		assertThat(registry.dialect()).isEqualTo(JdbcDialect.MARIADB);
		assertThat(registry.details()).containsEntry("dialect", "mysql");
		assertThat(messages).anySatisfy((message) -> assertThat(message).startsWith("INFO")
			.contains("crid_galera_choice", "Galera", "LAST_INSERT_ID(expr)"));
	}

	@Test
	@Order(1)
	void nodesOnEveryMemberRepeatNoIdAndGetNoOverlappingBlock() throws Exception {
		writeThroughEveryMember("crid_galera_writes", "wsrep_retry_autocommit at its default");
	}

	@Test
	@Order(2)
	void nodesOnEveryMemberRepeatNoIdAndGetNoOverlappingBlockWhenMembersDoNotRunStatementsAgain() throws Exception {
		setRetryAutocommit(0);
		try {
			writeThroughEveryMember("crid_galera_writes_no_retry", "wsrep_retry_autocommit=0");
		}
		finally {
			setRetryAutocommit(1);
		}
	}

	/** Sets the variable on every member, for the sessions opened from now on. */
	private void setRetryAutocommit(int retries) throws SQLException {
		for (int member = 0; member < 3; member++) {
			new JdbcTemplate(dataSource(cluster.url(member), 1))
				.execute("SET GLOBAL wsrep_retry_autocommit = " + retries);
		}
	}

	private void writeThroughEveryMember(String table, String setting) throws Exception {
		List<String> urls = new ArrayList<>();
		for (int member = 0; member < 3; member++) {
			urls.add(cluster.url(member));
			urls.add(cluster.url(member));
		}
		urls.add(cluster.loadBalancedUrl());
		urls.add(cluster.loadBalancedUrl());
		List<JdbcTemplateRegistry> registries = new ArrayList<>();
		for (String url : urls) {
			registries.add(JdbcTemplateRegistry.builder(new JdbcTemplate(dataSource(url, 2))).tableName(table).build());
		}
		registries.get(0).ensureSchema();
		GaleraWrites.Outcome outcome = GaleraWrites.run(cluster, registries, RUN);
		System.out.println("Galera, writes to every member, " + setting + ": " + outcome);
		outcome.assertNothingRepeated(500);
	}

	@Test
	@Order(3)
	void anEvictionOnOneMemberRefusesItsSecondsOnTheOthersWithoutHandingANumberOutTwice() throws Exception {
		String table = "crid_galera_eviction";
		JdbcTemplateRegistry evicting = registry(cluster.url(1), table);
		evicting.ensureSchema();
		List<RecordingRegistry> reserving = new ArrayList<>();
		for (int member : new int[] { 0, 2, 0, 2 }) {
			reserving.add(new RecordingRegistry(registry(cluster.url(member), table)));
		}
		ExecutorService threads = Executors.newFixedThreadPool(reserving.size());
		long refused = 0;
		long evictions = 0;
		try {
			for (int round = 0; round < EVICTION_ROUNDS; round++) {
				// Long past for every clock: what a node whose clock lags reserves in.
				long second = 1_000 + round;
				AtomicLong blocksOfRound = new AtomicLong();
				AtomicBoolean evicted = new AtomicBoolean();
				List<Future<Boolean>> reservers = new ArrayList<>();
				for (RecordingRegistry registry : reserving) {
					reservers.add(threads.submit(() -> reserveUntilRefused(registry, second, blocksOfRound, evicted)));
				}
				await().atMost(Duration.ofSeconds(30)).until(() -> blocksOfRound.get() >= 20 * reserving.size());
				evictions += evict(evicting, second + 1);
				evicted.set(true);
				for (Future<Boolean> reserver : reservers) {
					if (reserver.get(60, TimeUnit.SECONDS)) {
						refused++;
					}
				}
			}
		}
		finally {
			threads.shutdownNow();
		}
		long overlaps = RecordingRegistry.overlaps(reserving);
		long blocks = reserving.stream().mapToLong((registry) -> registry.blocks().size()).sum();
		System.out.printf(
				"Galera, evictions on one member racing reservations on the others: %d rounds, %,d blocks, "
						+ "%d overlapping; %d reservers refused; %d eviction attempts%n",
				EVICTION_ROUNDS, blocks, overlaps, refused, evictions);
		assertThat(overlaps).as("blocks overlapping another of their second").isZero();
		assertThat(refused).as("reservers refused once the eviction was done")
			.isEqualTo(EVICTION_ROUNDS * reserving.size());
		for (RecordingRegistry registry : reserving) {
			assertThatExceptionOfType(RegistryException.class).as("a reservation of an evicted second")
				.isThrownBy(() -> registry.allocate(1_000, 1))
				.withMessageContaining("evicted");
		}
	}

	@Test
	@Order(4)
	void killingAMemberUnderLoadRepeatsNoIdAndTheNodesCarryOnThroughTheOthers() throws Exception {
		String table = "crid_galera_kill";
		List<RecordingRegistry> registries = new ArrayList<>();
		List<CridNode> nodes = new ArrayList<>();
		List<IdIssuer> issuers = new ArrayList<>();
		try {
			for (int n = 0; n < 3; n++) {
				JdbcTemplateRegistry registry = JdbcTemplateRegistry
					.builder(new JdbcTemplate(dataSource(cluster.loadBalancedUrl(), 3)))
					.tableName(table)
					.build();
				if (n == 0) {
					registry.ensureSchema();
				}
				registries.add(new RecordingRegistry(registry));
				CridNode node = CridNode.builder(registries.get(n))
					.blockSize(KILL_BLOCK_SIZE)
					.threshold(KILL_BLOCK_SIZE / 2)
					.build();
				nodes.add(node);
				for (int t = 0; t < 2; t++) {
					issuers.add(new IdIssuer(node, KILL_IDS_PER_SECOND));
				}
			}
			issuers.forEach(Thread::start);
			await().atMost(Duration.ofSeconds(60))
				.until(() -> issuers.stream().allMatch((issuer) -> issuer.count() >= KILL_IDS_PER_SECOND));
			long killed = System.nanoTime();
			cluster.kill(2);
			await().atMost(RECOVERY_BOUND)
				.pollInterval(Duration.ofMillis(20))
				.until(() -> registries.stream().allMatch((registry) -> reservedAgainNanos(registry, killed) > 0));
			long[] reservedAgain = registries.stream()
				.mapToLong((registry) -> reservedAgainNanos(registry, killed))
				.toArray();
			int[] countsThen = issuers.stream().mapToInt(IdIssuer::count).toArray();
			await().atMost(Duration.ofSeconds(60))
				.until(() -> issuers.stream()
					.allMatch((issuer) -> issuer.count() >= countsThen[issuers.indexOf(issuer)] + KILL_IDS_PER_SECOND));
			IdIssuer.stopAll(issuers);
			long repeated = IdIssuer.repeatedIds(issuers);
			long overlaps = RecordingRegistry.overlaps(registries);
			long longestPause = issuers.stream().mapToLong(IdIssuer::longestPauseNanos).max().orElseThrow();
			System.out.printf(
					"Galera, a member killed under load: nodes reserved again after %s ms; longest pause of "
							+ "a thread %d ms; %,d IDs, %d repeated; %d failed nextId calls; %d overlapping blocks%n",
					Arrays.toString(Arrays.stream(reservedAgain).map(TimeUnit.NANOSECONDS::toMillis).toArray()),
					TimeUnit.NANOSECONDS.toMillis(longestPause), issuers.stream().mapToLong(IdIssuer::count).sum(),
					repeated, issuers.stream().mapToLong(IdIssuer::failures).sum(), overlaps);
			assertThat(repeated).as("IDs issued twice").isZero();
			assertThat(overlaps).as("blocks overlapping another of their second").isZero();
			assertThat(Arrays.stream(reservedAgain).max().orElseThrow())
				.as("nanoseconds until every node reserved again")
				.isLessThan(RECOVERY_BOUND.toNanos());
			for (IdIssuer issuer : issuers) {
				assertThat(issuer.failure()).as("an issuer's unexpected failure").isNull();
			}
		}
		finally {
			IdIssuer.stopAll(issuers);
			nodes.forEach(CridNode::close);
		}
	}

	/**
	 * How long after the kill the registry handed out the first block it was asked for
	 * after the kill, or 0 if it has not yet.
	 */
	private static long reservedAgainNanos(RecordingRegistry registry, long killed) {
		return registry.blocks()
			.stream()
			.filter((block) -> block.startedNanos() - killed > 0)
			.mapToLong((block) -> block.reservedNanos() - killed)
			.min()
			.orElse(0);
	}

	/**
	 * Evicts, trying again while the eviction collides with a reservation of the same row
	 * on another member (which certification rolls back as a deadlock); returns the
	 * attempts it took.
	 */
	private static int evict(JdbcTemplateRegistry registry, long before) {
		for (int attempt = 1;; attempt++) {
			try {
				registry.evictBefore(before);
				return attempt;
			}
			catch (RegistryException ex) {
				if (!ex.isRetryable() || attempt == 100) {
					throw ex;
				}
			}
		}
	}

	/**
	 * Reserves blocks of one second until the registry refuses it as evicted, and returns
	 * {@code true}; or returns {@code false} once it has reserved
	 * {@value #BLOCKS_AFTER_EVICTION} blocks after the eviction was done.
	 */
	private static boolean reserveUntilRefused(RecordingRegistry registry, long second, AtomicLong blocks,
			AtomicBoolean evicted) {
		int afterEviction = 0;
		while (afterEviction < BLOCKS_AFTER_EVICTION) {
			boolean wasEvicted = evicted.get();
			try {
				registry.allocate(second, ThreadLocalRandom.current().nextLong(1, 101));
				blocks.incrementAndGet();
				if (wasEvicted) {
					afterEviction++;
				}
			}
			catch (RegistryException ex) {
				if (!ex.isRetryable() && String.valueOf(ex.getMessage()).contains("evicted")) {
					return true;
				}
			}
		}
		return false;
	}

	private JdbcTemplateRegistry registry(String url, String table) {
		// No eviction by retention: the test evicts by hand.
		return JdbcTemplateRegistry.builder(new JdbcTemplate(dataSource(url, 2)))
			.tableName(table)
			.retention(null)
			.build();
	}

	private HikariDataSource dataSource(String url, int poolSize) {
		HikariDataSource dataSource = GaleraCluster.dataSource(url, poolSize);
		this.dataSources.add(dataSource);
		return dataSource;
	}

}
