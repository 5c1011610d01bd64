package dev.crid.jdbc;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.jdbc.BadSqlGrammarException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.TransactionAwareDataSourceProxy;
import org.springframework.transaction.support.TransactionTemplate;

import dev.crid.CridLayout;
import dev.crid.CridNode;
import dev.crid.LayoutMismatchException;
import dev.crid.Registry;
import dev.crid.RegistryException;
import dev.crid.sql.SqlDialect;
import dev.crid.testsupport.AbstractRegistryContractTest;
import dev.crid.testsupport.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.assertj.core.api.Assertions.entry;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The registry contract and the JDBC registry's own promises (persistence, transactions,
 * timeouts, schema handling), run against one database per subclass. Each class works in
 * a table of its own, dropped at the end, because other builds use the same databases at
 * the same time.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class AbstractJdbcTemplateRegistryIntegrationTest extends AbstractRegistryContractTest {

	private HikariDataSource dataSource;

	private JdbcTemplate jdbcTemplate;

	private String tableName;

	private JdbcTemplateRegistry registry;

	/**
	 * Returns a new pooled data source for the database; the test closes it.
	 * @param poolSize the pool's size
	 * @return the data source
	 */
	protected abstract HikariDataSource createDataSource(int poolSize);

	/**
	 * Returns the dialect the registry should detect for the database.
	 * @return the detected dialect
	 */
	protected abstract JdbcDialect detectedDialect();

	/**
	 * Returns the dialect to force on the registry, or {@code null} to test the detected
	 * one.
	 * @return the forced dialect, or {@code null}
	 */
	protected JdbcDialect forcedDialect() {
		return null;
	}

	/**
	 * Returns the name of a schema the test user may create tables in.
	 * @return a schema name
	 */
	protected abstract String schemaName();

	/**
	 * Returns the SQL that keeps a row locked until the connection's transaction ends.
	 * @param table the table
	 * @param timestamp the row's timestamp
	 * @return the SQL
	 */
	protected String lockRowSql(String table, long timestamp) {
		return "SELECT next_seq FROM " + table + " WHERE ts = " + timestamp + " FOR UPDATE";
	}

	/**
	 * Returns the template on the class's data source, once it is set up.
	 * @return the template
	 */
	protected final JdbcTemplate jdbcTemplate() {
		return this.jdbcTemplate;
	}

	/**
	 * Returns the dialect the tests expect the registry to use.
	 * @return the dialect
	 */
	protected final JdbcDialect dialectInUse() {
		return (forcedDialect() != null) ? forcedDialect() : detectedDialect();
	}

	@BeforeAll
	void createTable() {
		this.dataSource = createDataSource(10);
		this.jdbcTemplate = new JdbcTemplate(this.dataSource);
		this.tableName = uniqueTableName("contract");
		this.registry = newRegistry(this.jdbcTemplate, this.tableName, JdbcTemplateRegistry.DEFAULT_QUERY_TIMEOUT);
		this.registry.ensureSchema();
	}

	@AfterAll
	void dropTable() {
		if (this.dataSource != null) {
			TestDatabase.dropRegistryTables(this.dataSource, this.tableName);
			this.dataSource.close();
		}
	}

	@Override
	protected Registry registry() {
		return this.registry;
	}

	@Override
	protected int reservationsPerThread() {
		return 100;
	}

	@Override
	protected long storedNextSequence(long timestamp) {
		return this.jdbcTemplate.queryForObject("SELECT next_seq FROM " + this.tableName + " WHERE ts = ?", Long.class,
				timestamp);
	}

	/**
	 * Returns a table name no other test class or concurrent build uses.
	 * @param purpose a word for the table's use
	 * @return the table name
	 */
	protected final String uniqueTableName(String purpose) {
		return ("crid_" + getClass().getSimpleName().replace("IntegrationTest", "") + "_" + purpose + "_"
				+ ProcessHandle.current().pid())
			.toLowerCase();
	}

	/**
	 * A registry that keeps every row: the tests reserve seconds up to decades ahead, and
	 * on a dialect that reads no database clock, a retention would count back from those
	 * and evict the seconds that a node on the real clock needs. The retention tests
	 * build their own registries.
	 */
	private JdbcTemplateRegistry newRegistry(JdbcTemplate template, String table, Duration queryTimeout) {
		return JdbcTemplateRegistry.builder(template)
			.tableName(table)
			.dialect(forcedDialect())
			.queryTimeout(queryTimeout)
			.retention(Duration.ZERO)
			.build();
	}

	@Test
	void detectsTheDialectFromTheDatabase() {
		JdbcTemplateRegistry detecting = JdbcTemplateRegistry.builder(this.jdbcTemplate)
			.tableName(this.tableName)
			.build();
		assertThat(detecting.dialect()).isEqualTo(detectedDialect());
		assertThat(this.registry.dialect()).isEqualTo(dialectInUse());
	}

	@Test
	void detailsNameTheTableAndOnceConnectedTheDialectWhoseStatementsRun() {
		JdbcTemplateRegistry fresh = newRegistry(this.jdbcTemplate, this.tableName, Duration.ofSeconds(5));
		assertThat(fresh.details()).as("before any connection").containsExactly(entry("table", this.tableName));
		assertThat(fresh.kind()).isEqualTo("jdbc");
		assertThat(fresh.check()).isTrue();
		assertThat(fresh.details()).containsExactly(entry("table", this.tableName),
				entry("dialect", statementsInUse().id()));
	}

	/**
	 * Returns the statements the registry runs: the dialect's own, unless the driver
	 * refuses them.
	 * @return the statements' dialect
	 */
	protected SqlDialect statementsInUse() {
		return dialectInUse().statements();
	}

	@Test
	void namesTheSchemaScriptOfItsDialect() {
		String script = this.registry.schemaScript();
		assertThat(script).isEqualTo("dev/crid/jdbc/schema-" + dialectInUse().name().toLowerCase() + ".sql");
		assertThat(getClass().getClassLoader().getResource(script)).isNotNull();
	}

	@Test
	void aNewRegistryInstanceNeverReissuesABlock() {
		long timestamp = freshTimestamp();
		assertThat(this.registry.allocate(timestamp, 100)).isZero();
		assertThat(this.registry.allocate(timestamp, 100)).isEqualTo(100);
		try (HikariDataSource restarted = createDataSource(2)) {
			JdbcTemplateRegistry afterRestart = newRegistry(new JdbcTemplate(restarted), this.tableName,
					JdbcTemplateRegistry.DEFAULT_QUERY_TIMEOUT);
			assertThat(afterRestart.allocate(timestamp, 100)).isEqualTo(200);
			assertThat(afterRestart.allocate(freshTimestamp(), 100)).isZero();
		}
		assertThat(this.registry.allocate(timestamp, 100)).isEqualTo(300);
	}

	@Test
	void aRolledBackTransactionKeepsItsBlockReserved() {
		long timestamp = freshTimestamp();
		TransactionTemplate transactions = new TransactionTemplate(new DataSourceTransactionManager(this.dataSource));
		Long inside = transactions.execute((status) -> {
			long start = this.registry.allocate(timestamp, 10);
			status.setRollbackOnly();
			return start;
		});
		assertThat(inside).isZero();
		assertThat(storedNextSequence(timestamp)).isEqualTo(10);
		assertThat(this.registry.allocate(timestamp, 10)).isEqualTo(10);
	}

	@Test
	void aRolledBackTransactionKeepsItsBlockReservedWithATransactionAwareDataSource() {
		long timestamp = freshTimestamp();
		TransactionAwareDataSourceProxy proxy = new TransactionAwareDataSourceProxy(this.dataSource);
		JdbcTemplateRegistry onProxy = newRegistry(new JdbcTemplate(proxy), this.tableName, Duration.ofSeconds(5));
		TransactionTemplate transactions = new TransactionTemplate(new DataSourceTransactionManager(this.dataSource));
		assertThatExceptionOfType(IllegalStateException.class)
			.isThrownBy(() -> transactions.executeWithoutResult((status) -> {
				assertThat(onProxy.allocate(timestamp, 10)).isZero();
				throw new IllegalStateException("business failure");
			}));
		assertThat(onProxy.allocate(timestamp, 10)).isEqualTo(10);
	}

	@Test
	void reservationsInTransactionsHoldingEveryPooledConnectionFailWithinThePoolsConnectionTimeout() throws Exception {
		// Two threads, each in a transaction on one of the pool's two connections, each
		// reserving: a reservation never joins its caller's transaction, so each needs a
		// third connection, and fails.
		Duration poolTimeout = TestDatabase.POOL_CONNECTION_TIMEOUT;
		try (HikariDataSource small = createDataSource(2)) {
			JdbcTemplate template = new JdbcTemplate(small);
			JdbcTemplateRegistry smallRegistry = newRegistry(template, this.tableName, Duration.ofSeconds(1));
			smallRegistry.dialect();
			TransactionTemplate transactions = new TransactionTemplate(new DataSourceTransactionManager(small));
			long timestamp = freshTimestamp();
			CyclicBarrier bothInTransactions = new CyclicBarrier(2);
			// Neither transaction ends, freeing a connection for the other, before both
			// reservations are over.
			CyclicBarrier bothDone = new CyclicBarrier(2);
			ExecutorService executor = Executors.newFixedThreadPool(2);
			List<Future<Object>> outcomes = new ArrayList<>();
			for (int i = 0; i < 2; i++) {
				outcomes.add(executor.submit(() -> transactions.execute((status) -> {
					template.queryForObject("SELECT COUNT(*) FROM " + this.tableName, Long.class);
					awaitBarrier(bothInTransactions);
					long started = System.nanoTime();
					try {
						return smallRegistry.allocate(timestamp, 10);
					}
					catch (RegistryException ex) {
						return new Failure(ex, Duration.ofNanos(System.nanoTime() - started));
					}
					finally {
						awaitBarrier(bothDone);
					}
				})));
			}
			for (Future<Object> outcome : outcomes) {
				assertThat(outcome.get(30, TimeUnit.SECONDS)).isInstanceOfSatisfying(Failure.class, (failure) -> {
					assertThat(failure.exception())
						.hasMessageContaining("reserve 10 sequence numbers of timestamp " + timestamp)
						.hasMessageContaining("Connection is not available")
						.hasMessageContaining("within its connection timeout of " + poolTimeout.toMillis() + " ms");
					assertThat(failure.exception().isRetryable()).as("a pool without a free connection may pass")
						.isTrue();
					assertThat(failure.took()).isGreaterThanOrEqualTo(poolTimeout)
						.isLessThan(poolTimeout.plusSeconds(3));
				});
			}
			executor.shutdown();
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(small.getHikariPoolMXBean().getActiveConnections()).isZero());
			assertThat(smallRegistry.allocate(timestamp, 10)).as("the pool recovered").isZero();
		}
	}

	private static void awaitBarrier(CyclicBarrier barrier) {
		try {
			barrier.await(10, TimeUnit.SECONDS);
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	/** A failed reservation and how long it took. */
	private record Failure(RegistryException exception, Duration took) {
	}

	@Test
	void aLockedRowMakesTheReservationFailWithinTheQueryTimeout() throws Exception {
		long timestamp = freshTimestamp();
		this.registry.allocate(timestamp, 10);
		JdbcTemplateRegistry impatient = newRegistry(this.jdbcTemplate, this.tableName, Duration.ofSeconds(1));
		try (Connection locker = this.dataSource.getConnection()) {
			locker.setAutoCommit(false);
			try (Statement statement = locker.createStatement()) {
				statement.executeQuery(lockRowSql(this.tableName, timestamp)).close();
			}
			long started = System.nanoTime();
			assertThatExceptionOfType(RegistryException.class).isThrownBy(() -> impatient.allocate(timestamp, 10))
				.withMessageContaining("reserve 10 sequence numbers of timestamp " + timestamp)
				.satisfies((ex) -> assertThat(ex.isRetryable()).as("a lock wait that timed out may pass").isTrue());
			assertThat(Duration.ofNanos(System.nanoTime() - started)).as("waited for the lock until the query timeout")
				.isGreaterThanOrEqualTo(Duration.ofSeconds(1))
				.isLessThan(Duration.ofSeconds(3));
			locker.rollback();
		}
		assertThat(this.registry.allocate(timestamp, 10)).isBetween(10L, 20L);
	}

	@Test
	void aMissingTableIsReportedWithItsNameAndScript() {
		String missing = uniqueTableName("missing");
		JdbcTemplateRegistry onMissing = newRegistry(this.jdbcTemplate, missing, Duration.ofSeconds(5));
		String script = "dev/crid/jdbc/schema-" + dialectInUse().name().toLowerCase() + ".sql";
		assertThatExceptionOfType(MissingTableException.class)
			.isThrownBy(() -> onMissing.allocate(freshTimestamp(), 10))
			.satisfies((ex) -> {
				assertThat(ex.tableName()).isEqualTo(missing);
				assertThat(ex.schemaScript()).isEqualTo(script);
			})
			.withMessageContaining("'" + missing + "'")
			.withMessageContaining(script)
			.withMessageContaining("spring.sql.init.schema-locations=classpath:" + script)
			.satisfies((ex) -> assertThat(ex.isRetryable()).isFalse());
		assertThatExceptionOfType(MissingTableException.class).isThrownBy(onMissing::verifySchema)
			.withMessageContaining(missing);
		assertThatExceptionOfType(MissingTableException.class).as("its own check, for the health indicator")
			.isThrownBy(onMissing::check)
			.satisfies((ex) -> assertThat(ex.isRetryable()).isFalse());
	}

	@Test
	void aNodeThrowsAMissingTableAtOnceInsteadOfRetryingUntilItsTimeout() {
		JdbcTemplateRegistry onMissing = newRegistry(this.jdbcTemplate, uniqueTableName("missing"),
				Duration.ofSeconds(5));
		assertThrownAtOnceByANode(onMissing, MissingTableException.class);
	}

	@Test
	void aSyntaxErrorIsNotRetryableAndANodeThrowsItAtOnce() {
		// A reserved word passes the name check, but no statement on the table parses, so
		// none creates it.
		JdbcTemplateRegistry unparsable = newRegistry(this.jdbcTemplate, "order", Duration.ofSeconds(5));
		assertThatExceptionOfType(RegistryException.class).isThrownBy(() -> unparsable.allocate(freshTimestamp(), 10))
			.isNotInstanceOf(MissingTableException.class)
			.withCauseInstanceOf(BadSqlGrammarException.class)
			.satisfies((ex) -> assertThat(ex.isRetryable()).isFalse());
		assertThrownAtOnceByANode(unparsable, BadSqlGrammarException.class);
	}

	/**
	 * Asserts that a node on the registry throws its failure to the caller at once: well
	 * within the node's 30 s allocation timeout, which a failure taken as retryable would
	 * wait out.
	 */
	protected static void assertThrownAtOnceByANode(Registry registry, Class<? extends Throwable> failure) {
		try (CridNode node = CridNode.builder(registry).allocationTimeout(Duration.ofSeconds(30)).build()) {
			long started = System.nanoTime();
			assertThatExceptionOfType(RegistryException.class).isThrownBy(node::nextId)
				.satisfies((ex) -> assertThat(ex.isRetryable()).isFalse())
				.satisfies((ex) -> assertThat(causeChain(ex)).as("the failure and its causes")
					.anyMatch(failure::isInstance));
			// 10 s: far below the timeout, and far above one round trip on a busy
			// machine.
			assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
		}
	}

	private static List<Throwable> causeChain(Throwable failure) {
		List<Throwable> chain = new ArrayList<>();
		for (Throwable current = failure; current != null && chain.size() < 20; current = current.getCause()) {
			chain.add(current);
		}
		return chain;
	}

	@Test
	void ensureSchemaCreatesASchemaQualifiedTableOnceFromTheScript() {
		String table = schemaName() + "." + uniqueTableName("created");
		JdbcTemplateRegistry created = newRegistry(this.jdbcTemplate, table, Duration.ofSeconds(5));
		try {
			assertThatExceptionOfType(MissingTableException.class).as("before the dialect is known")
				.isThrownBy(created::verifySchema)
				.satisfies((ex) -> assertThat(ex.schemaScript()).isEqualTo(created.schemaScript()))
				.withMessageContaining(table);
			created.ensureSchema();
			assertThatNoException().isThrownBy(created::verifySchema);
			long timestamp = freshTimestamp();
			assertThat(created.allocate(timestamp, 5)).isZero();
			created.ensureSchema();
			assertThat(created.allocate(timestamp, 5)).as("a second ensureSchema keeps the rows").isEqualTo(5);
			assertThatExceptionOfType(RuntimeException.class).as("ts is the primary key")
				.isThrownBy(() -> this.jdbcTemplate.update("INSERT INTO " + table + " (ts, next_seq) VALUES (?, 0)",
						timestamp));
		}
		finally {
			TestDatabase.dropRegistryTables(this.dataSource, table);
		}
	}

	@Test
	void severalInstancesMayEnsureTheSchemaAtOnce() throws Exception {
		String table = uniqueTableName("racing");
		ExecutorService executor = Executors.newFixedThreadPool(4);
		try {
			CyclicBarrier together = new CyclicBarrier(4);
			List<Future<Long>> starts = new ArrayList<>();
			for (int i = 0; i < 4; i++) {
				JdbcTemplateRegistry instance = newRegistry(this.jdbcTemplate, table, Duration.ofSeconds(5));
				starts.add(executor.submit(() -> {
					together.await(10, TimeUnit.SECONDS);
					instance.ensureSchema();
					return instance.allocate(1, 10);
				}));
			}
			Set<Long> distinct = new HashSet<>();
			for (Future<Long> start : starts) {
				distinct.add(start.get(30, TimeUnit.SECONDS));
			}
			assertThat(distinct).containsExactlyInAnyOrder(0L, 10L, 20L, 30L);
		}
		finally {
			executor.shutdown();
			TestDatabase.dropRegistryTables(this.dataSource, table);
		}
	}

	@Test
	void evictBeforeDeletesOlderSecondsAndEveryRegistryRefusesThemFromThenOn() {
		String table = uniqueTableName("evict");
		JdbcTemplateRegistry evicting = newRegistry(this.jdbcTemplate, table, Duration.ofSeconds(5));
		evicting.ensureSchema();
		try (HikariDataSource otherProcess = createDataSource(2)) {
			for (long second = 100; second < 106; second++) {
				evicting.allocate(second, 10);
			}
			assertThat(evicting.evictBefore(103)).as("rows of seconds 100, 101 and 102").isEqualTo(3);
			assertThat(this.jdbcTemplate.queryForList("SELECT ts FROM " + table + " ORDER BY ts", Long.class))
				.containsExactly(103L, 104L, 105L);
			JdbcTemplateRegistry other = newRegistry(new JdbcTemplate(otherProcess), table, Duration.ofSeconds(5));
			for (JdbcTemplateRegistry registry : List.of(evicting, other)) {
				assertThatExceptionOfType(RegistryException.class).isThrownBy(() -> registry.allocate(101, 10))
					.withMessageContaining("Timestamp 101")
					.withMessageContaining("every second before 103 was evicted")
					.satisfies((ex) -> assertThat(ex.isRetryable()).isFalse());
				assertThatExceptionOfType(RegistryException.class).isThrownBy(() -> registry.allocate(50, 10));
			}
			assertThat(other.allocate(103, 10)).isEqualTo(10);
			assertThat(evicting.allocate(106, 10)).isZero();
			assertThat(other.evictBefore(103)).as("nothing left below").isZero();
			assertThat(other.evictBefore(90)).as("a lower watermark changes nothing").isZero();
			assertThatExceptionOfType(RegistryException.class).isThrownBy(() -> evicting.allocate(102, 10));
		}
		finally {
			TestDatabase.dropRegistryTables(this.dataSource, table);
		}
	}

	@Test
	void evictionRacingReservationsNeverLetsASecondHandOutANumberTwice() throws Exception {
		// Reservers keep asking for seconds around a watermark that an evictor keeps
		// raising: a reservation that slipped past the watermark into a deleted second
		// would start again at 0 and overlap a block already handed out.
		String table = uniqueTableName("evict_race");
		JdbcTemplateRegistry shared = newRegistry(this.jdbcTemplate, table, Duration.ofSeconds(5));
		shared.ensureSchema();
		java.util.Map<Long, List<Long>> starts = new java.util.concurrent.ConcurrentHashMap<>();
		java.util.concurrent.atomic.AtomicLong refused = new java.util.concurrent.atomic.AtomicLong();
		java.util.concurrent.atomic.AtomicLong watermark = new java.util.concurrent.atomic.AtomicLong();
		java.util.concurrent.atomic.AtomicBoolean running = new java.util.concurrent.atomic.AtomicBoolean(true);
		ExecutorService executor = Executors.newFixedThreadPool(4);
		try {
			List<Future<?>> workers = new ArrayList<>();
			for (int t = 0; t < 3; t++) {
				workers.add(executor.submit(() -> {
					java.util.SplittableRandom random = new java.util.SplittableRandom();
					while (running.get()) {
						long second = Math.max(0, watermark.get() - 3 + random.nextInt(8));
						try {
							long start = shared.allocate(second, 10);
							starts.computeIfAbsent(second, (key) -> new java.util.concurrent.CopyOnWriteArrayList<>())
								.add(start);
						}
						catch (RegistryException ex) {
							assertThat(ex.isRetryable()).as("only refusals: %s", ex).isFalse();
							refused.incrementAndGet();
						}
					}
				}));
			}
			// Two seconds at least, and on a loaded machine until the race has had enough
			// rounds to show anything (30 s at most).
			long started = System.nanoTime();
			while (Duration.ofNanos(System.nanoTime() - started).compareTo(Duration.ofSeconds(2)) < 0
					|| (Duration.ofNanos(System.nanoTime() - started).compareTo(Duration.ofSeconds(30)) < 0
							&& (watermark.get() <= 20 || refused.get() == 0 || starts.size() <= 20))) {
				shared.evictBefore(watermark.incrementAndGet());
			}
			running.set(false);
			for (Future<?> worker : workers) {
				worker.get(30, TimeUnit.SECONDS);
			}
			assertThat(watermark.get()).as("evictions").isGreaterThan(20);
			assertThat(refused.get()).as("reservations refused below the watermark").isPositive();
			assertThat(starts).as("seconds reserved in").hasSizeGreaterThan(20);
			starts.forEach((second, list) -> assertThat(list).as("starts handed out in second %d", second)
				.doesNotHaveDuplicates()
				.allSatisfy((start) -> assertThat(start % 10).isZero()));
		}
		finally {
			running.set(false);
			executor.shutdownNow();
			TestDatabase.dropRegistryTables(this.dataSource, table);
		}
	}

	@Test
	void retentionEvictsOldSecondsAfterReservations() {
		String table = uniqueTableName("retention");
		JdbcTemplateRegistry retaining = JdbcTemplateRegistry.builder(this.jdbcTemplate)
			.tableName(table)
			.dialect(forcedDialect())
			.retention(Duration.ofSeconds(3))
			.build();
		retaining.ensureSchema();
		try {
			assertThat(retaining.retention()).isEqualTo(Duration.ofSeconds(3));
			for (long second = 1; second <= 10; second++) {
				retaining.allocate(second, 1);
			}
			// Evictions run at most every second (a 24th of the retention, at least a
			// second).
			await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100)).until(() -> {
				retaining.allocate(10, 1);
				return this.jdbcTemplate.queryForObject("SELECT MIN(ts) FROM " + table, Long.class) == 7;
			});
			assertThatExceptionOfType(RegistryException.class).isThrownBy(() -> retaining.allocate(6, 1))
				.withMessageContaining("every second before 7 was evicted");
			JdbcTemplateRegistry keeping = JdbcTemplateRegistry.builder(this.jdbcTemplate)
				.tableName(table)
				.retention(Duration.ZERO)
				.build();
			assertThat(keeping.retention()).isNull();
		}
		finally {
			TestDatabase.dropRegistryTables(this.dataSource, table);
		}
	}

	@Test
	void aNodeWhoseClockRunsAheadEvictsNothingTheDatabasesOwnSecondsStillNeed() {
		assumeTrue(readsTheDatabasesClock(), "only a database that tells its clock can be told from a node's");
		String table = uniqueTableName("evict_ahead");
		JdbcTemplateRegistry retaining = JdbcTemplateRegistry.builder(this.jdbcTemplate)
			.tableName(table)
			.dialect(forcedDialect())
			.retention(Duration.ofSeconds(2))
			.build();
		retaining.ensureSchema();
		try {
			retaining.checkLayout(CridLayout.DEFAULT);
			long now = CridLayout.DEFAULT.timestampAt(Instant.now());
			retaining.allocate(now, 1);
			// A node an hour ahead keeps reserving, past several eviction intervals (a
			// second each here).
			long started = System.nanoTime();
			while (Duration.ofNanos(System.nanoTime() - started).compareTo(Duration.ofMillis(2_500)) < 0) {
				retaining.allocate(now + 3_600, 1);
			}
			assertThat(retaining.allocate(CridLayout.DEFAULT.timestampAt(Instant.now()), 1))
				.as("the database's own second is still served")
				.isNotNegative();
		}
		finally {
			TestDatabase.dropRegistryTables(this.dataSource, table);
		}
	}

	private boolean readsTheDatabasesClock() {
		return EnumSet.of(JdbcDialect.POSTGRESQL, JdbcDialect.MARIADB, JdbcDialect.MYSQL).contains(dialectInUse());
	}

	@Test
	void layoutIsRecordedOnFirstUseAndAnotherIsRefusedByEveryRegistry() {
		String table = uniqueTableName("layout");
		JdbcTemplateRegistry first = newRegistry(this.jdbcTemplate, table, Duration.ofSeconds(5));
		first.ensureSchema();
		CridLayout other = CridLayout.of(CridLayout.DEFAULT_EPOCH, 32, 31);
		try (HikariDataSource otherProcess = createDataSource(2)) {
			first.checkLayout(CridLayout.DEFAULT);
			JdbcTemplateRegistry second = newRegistry(new JdbcTemplate(otherProcess), table, Duration.ofSeconds(5));
			assertThatExceptionOfType(LayoutMismatchException.class).isThrownBy(() -> second.checkLayout(other))
				.withMessageContaining("'" + table + "'")
				.withMessageContaining("31 timestamp bits and 32 sequence bits")
				.withMessageContaining("32 timestamp bits and 31 sequence bits")
				.satisfies((ex) -> assertThat(ex.registryLayout()).isEqualTo(CridLayout.DEFAULT));
			second.checkLayout(CridLayout.DEFAULT);
			assertThat(this.jdbcTemplate.queryForList("SELECT timestamp_bits, sequence_bits FROM " + table + "_meta"))
				.singleElement()
				.satisfies((row) -> assertThat(row.values()).extracting((value) -> ((Number) value).intValue())
					.containsExactly(31, 32));
			try (CridNode node = CridNode.builder(second).layout(other).build()) {
				assertThatExceptionOfType(LayoutMismatchException.class).isThrownBy(node::nextId);
			}
		}
		finally {
			TestDatabase.dropRegistryTables(this.dataSource, table);
		}
	}

	@Test
	void reservationsTellTheDatabasesClockWhereTheDialectReadsIt() {
		Instant before = Instant.now();
		Registry.Reservation reservation = this.registry.reserve(freshTimestamp(), 10);
		Instant after = Instant.now();
		if (readsTheDatabasesClock()) {
			// The database runs on this machine, on the same clock.
			assertThat(reservation.registryTime()).isBetween(before.minusMillis(50), after.plusMillis(50));
		}
		else {
			assertThat(reservation.registryTime()).isNull();
		}
	}

	@Test
	void registryCallsRunOnTheCallingThreadAndStartNoThreads() throws Exception {
		Set<String> before = threadNames();
		List<Thread> connecting = new java.util.concurrent.CopyOnWriteArrayList<>();
		javax.sql.DataSource recording = new org.springframework.jdbc.datasource.DelegatingDataSource(this.dataSource) {

			@Override
			public Connection getConnection() throws java.sql.SQLException {
				connecting.add(Thread.currentThread());
				return super.getConnection();
			}

		};
		JdbcTemplateRegistry onRecording = newRegistry(new JdbcTemplate(recording), this.tableName,
				Duration.ofSeconds(5));
		onRecording.checkLayout(CridLayout.DEFAULT);
		onRecording.allocate(freshTimestamp(), 10);
		onRecording.evictBefore(0);
		onRecording.verifySchema();
		assertThat(connecting).isNotEmpty().containsOnly(Thread.currentThread());
		try (CridNode node = CridNode.builder(onRecording).build()) {
			node.nextId();
			assertThat(connecting.get(connecting.size() - 1).getName()).startsWith("crid-prefetch-");
		}
		await("threads left behind").atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
			Set<String> started = threadNames();
			started.removeAll(before);
			assertThat(started).noneMatch((name) -> name.startsWith("crid"));
		});
	}

	private static Set<String> threadNames() {
		Set<String> names = new HashSet<>();
		Thread.getAllStackTraces().keySet().forEach((thread) -> names.add(thread.getName()));
		return names;
	}

}
