package dev.crid.jdbc;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
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
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.TransactionAwareDataSourceProxy;
import org.springframework.transaction.support.TransactionTemplate;

import dev.crid.Registry;
import dev.crid.RegistryException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.awaitility.Awaitility.await;

/**
 * The registry contract and the JDBC registry's own promises (persistence, transactions, timeouts, schema
 * handling), run against one database per subclass. Each class works in a table of its own, dropped at
 * the end, because other builds use the same databases at the same time.
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
	 * Returns the dialect to force on the registry, or {@code null} to test the detected one.
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
			this.jdbcTemplate.execute("DROP TABLE IF EXISTS " + this.tableName);
			this.dataSource.close();
		}
	}

	@Override
	protected Registry registry() {
		return this.registry;
	}

	@Override
	protected int allocationsPerThread() {
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
				+ ProcessHandle.current().pid()).toLowerCase();
	}

	private JdbcTemplateRegistry newRegistry(JdbcTemplate template, String table, Duration queryTimeout) {
		return JdbcTemplateRegistry.builder(template)
			.tableName(table)
			.dialect(forcedDialect())
			.queryTimeout(queryTimeout)
			.build();
	}

	@Test
	void detectsTheDialectFromTheDatabase() {
		JdbcTemplateRegistry detecting = JdbcTemplateRegistry.builder(this.jdbcTemplate).tableName(this.tableName).build();
		assertThat(detecting.dialect()).isEqualTo(detectedDialect());
		assertThat(this.registry.dialect()).isEqualTo(dialectInUse());
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
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> transactions.executeWithoutResult((status) -> {
			assertThat(onProxy.allocate(timestamp, 10)).isZero();
			throw new IllegalStateException("business failure");
		}));
		assertThat(onProxy.allocate(timestamp, 10)).isEqualTo(10);
	}

	@Test
	void aSmallPoolWithEveryConnectionInATransactionFailsClearlyWithinTheTimeout() throws Exception {
		Duration queryTimeout = Duration.ofSeconds(1);
		try (HikariDataSource small = createDataSource(2)) {
			JdbcTemplate template = new JdbcTemplate(small);
			JdbcTemplateRegistry smallRegistry = newRegistry(template, this.tableName, queryTimeout);
			smallRegistry.dialect();
			TransactionTemplate transactions = new TransactionTemplate(new DataSourceTransactionManager(small));
			long timestamp = freshTimestamp();
			int threads = 8;
			ExecutorService executor = Executors.newFixedThreadPool(threads);
			List<Future<Object>> outcomes = new ArrayList<>();
			for (int i = 0; i < threads; i++) {
				outcomes.add(executor.submit(() -> {
					try {
						return transactions.execute((status) -> {
							template.queryForObject("SELECT COUNT(*) FROM " + this.tableName, Long.class);
							long started = System.nanoTime();
							try {
								return smallRegistry.allocate(timestamp, 10);
							}
							finally {
								assertThat(Duration.ofNanos(System.nanoTime() - started))
									.as("a synchronous allocation inside a transaction")
									.isLessThan(queryTimeout.plusSeconds(2));
							}
						});
					}
					catch (RegistryException ex) {
						return ex;
					}
				}));
			}
			Set<Long> starts = new HashSet<>();
			List<RegistryException> failures = new ArrayList<>();
			for (Future<Object> future : outcomes) {
				Object outcome = future.get(30, TimeUnit.SECONDS);
				if (outcome instanceof Long start) {
					assertThat(starts.add(start)).as("start %d handed out once", start).isTrue();
				}
				else {
					failures.add((RegistryException) outcome);
				}
			}
			executor.shutdown();
			assertThat(failures).allSatisfy((failure) -> assertThat(failure)
				.hasMessageContaining("reserve 10 sequence numbers of timestamp " + timestamp)
				.hasMessageContaining("PT1S"));
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(small.getHikariPoolMXBean().getActiveConnections()).isZero());
			assertThat(smallRegistry.allocate(timestamp, 10)).as("the pool recovered")
				.isEqualTo(storedNextSequence(timestamp) - 10);
		}
	}

	@Test
	void aLockedRowMakesTheAllocationFailWithinTheQueryTimeout() throws Exception {
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
				.withMessageContaining("reserve 10 sequence numbers of timestamp " + timestamp);
			assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(3));
			locker.rollback();
		}
		assertThat(this.registry.allocate(timestamp, 10)).isBetween(10L, 20L);
	}

	@Test
	void aMissingTableIsReportedWithItsNameAndScript() {
		String missing = uniqueTableName("missing");
		JdbcTemplateRegistry onMissing = newRegistry(this.jdbcTemplate, missing, Duration.ofSeconds(5));
		String script = "dev/crid/jdbc/schema-" + dialectInUse().name().toLowerCase() + ".sql";
		assertThatExceptionOfType(MissingTableException.class).isThrownBy(() -> onMissing.allocate(freshTimestamp(), 10))
			.satisfies((ex) -> {
				assertThat(ex.tableName()).isEqualTo(missing);
				assertThat(ex.schemaScript()).isEqualTo(script);
			})
			.withMessageContaining("'" + missing + "'")
			.withMessageContaining(script);
		assertThatExceptionOfType(MissingTableException.class).isThrownBy(onMissing::verifySchema)
			.withMessageContaining(missing);
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
			this.jdbcTemplate.execute("DROP TABLE IF EXISTS " + table);
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
			this.jdbcTemplate.execute("DROP TABLE IF EXISTS " + table);
		}
	}

}
