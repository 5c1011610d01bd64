package dev.crid.r2dbc;

import java.io.IOException;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import io.r2dbc.pool.ConnectionPool;
import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.R2dbcBadGrammarException;
import io.r2dbc.spi.R2dbcDataIntegrityViolationException;
import io.r2dbc.spi.R2dbcRollbackException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.crid.CridLayout;
import dev.crid.CridNode;
import dev.crid.RegistryException;
import dev.crid.testsupport.FaultLoad;
import dev.crid.testsupport.R2dbcTestDatabases;
import dev.crid.testsupport.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The R2DBC registry's failure paths, each on a real database: a conflict the database
 * rolled back is tried again, anything else is not; an interrupt during the wait between
 * tries ends the call; a failed commit is rolled back before the next try; a statement
 * that outlasts the query timeout fails within it; a refused connection fails every
 * operation at once. Failures are put in front of the real driver by a
 * {@link FaultyConnectionFactory} where the database would give them only under load.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class R2dbcFailurePathsIntegrationTest {

	private static final Duration SLACK = Duration.ofSeconds(2);

	/**
	 * What a node's caller may take beyond its allocation timeout: the margin the fault
	 * tests allow a loaded machine to schedule the threads that notice a deadline.
	 */
	private static final Duration CALLER_MARGIN = FaultLoad.CALL_MARGIN;

	private final String table = "crid_r2dbc_failures_" + ProcessHandle.current().pid();

	private ConnectionPool pool;

	private HikariDataSource admin;

	@BeforeAll
	void createTable() {
		this.pool = R2dbcTestDatabases.pool(TestDatabase.POSTGRESQL, 4);
		this.admin = TestDatabase.POSTGRESQL.dataSource(2);
		registry(this.pool, this.table, Duration.ofSeconds(30)).ensureSchema();
	}

	@AfterAll
	void dropTable() {
		if (this.admin != null) {
			TestDatabase.dropRegistryTables(this.admin, this.table);
			this.admin.close();
		}
		if (this.pool != null) {
			this.pool.dispose();
		}
	}

	private static R2dbcRegistry registry(ConnectionFactory connectionFactory, String table, Duration queryTimeout) {
		return R2dbcRegistry.builder(connectionFactory)
			.tableName(table)
			.queryTimeout(queryTimeout)
			.retention(Duration.ZERO)
			.build();
	}

	private static long freshTimestamp() {
		return 1_000_000 + ThreadLocalRandom.current().nextLong(1_000_000_000);
	}

	@ParameterizedTest
	@ValueSource(strings = { "40001", "40P01", "23505" })
	void aConflictTheDatabaseRolledBackIsTriedAgainAndReservesOnce(String sqlState) {
		FaultyConnectionFactory faults = new FaultyConnectionFactory(this.pool).failStatements("ON CONFLICT", 3,
				() -> sqlState.startsWith("23") ? new R2dbcDataIntegrityViolationException("duplicate key", sqlState)
						: new R2dbcRollbackException("could not serialize access", sqlState));
		R2dbcRegistry registry = registry(faults, this.table, Duration.ofSeconds(30));
		long timestamp = freshTimestamp();
		assertThat(registry.allocate(timestamp, 10)).isZero();
		assertThat(faults.statementsSeen()).as("three failed tries and the one that reserved").isEqualTo(4);
		assertThat(storedNextSequence(timestamp)).as("reserved once").isEqualTo(10);
		assertThat(registry.allocate(timestamp, 10)).isEqualTo(10);
	}

	@Test
	void aFailureThatIsNoConflictIsNotTriedAgainNorRetryable() {
		FaultyConnectionFactory faults = new FaultyConnectionFactory(this.pool).failStatements("ON CONFLICT", 1,
				() -> new R2dbcBadGrammarException("syntax error at or near \"ON\"", "42601"));
		R2dbcRegistry registry = registry(faults, this.table, Duration.ofSeconds(30));
		assertThatExceptionOfType(RegistryException.class).isThrownBy(() -> registry.allocate(freshTimestamp(), 10))
			.withMessageContaining("syntax error")
			.withMessageContaining("asking again cannot mend this")
			.satisfies((ex) -> assertThat(ex.isRetryable()).isFalse());
		assertThat(faults.statementsSeen()).as("tries").isEqualTo(1);
	}

	@Test
	void aRealSyntaxErrorIsNotRetryableAndANodeThrowsItAtOnce() {
		// A reserved word passes the name check, but no statement on the table parses.
		R2dbcRegistry unparsable = registry(this.pool, "order", Duration.ofSeconds(5));
		assertThatExceptionOfType(RegistryException.class).isThrownBy(() -> unparsable.allocate(freshTimestamp(), 1))
			.withCauseInstanceOf(R2dbcBadGrammarException.class)
			.satisfies((ex) -> assertThat(ex.isRetryable()).isFalse());
		try (CridNode node = CridNode.builder(unparsable).allocationTimeout(Duration.ofSeconds(30)).build()) {
			long started = System.nanoTime();
			assertThatExceptionOfType(RegistryException.class).isThrownBy(node::nextId)
				.satisfies((ex) -> assertThat(ex.isRetryable()).isFalse());
			assertThat(Duration.ofNanos(System.nanoTime() - started)).as("far below the node's 30 s")
				.isLessThan(Duration.ofSeconds(10));
		}
	}

	@Test
	void anInterruptWhileWaitingToTryAgainEndsTheCallAndKeepsTheInterrupt() {
		FaultyConnectionFactory faults = new FaultyConnectionFactory(this.pool)
			.failStatements("ON CONFLICT", 20, () -> new R2dbcRollbackException("could not serialize access", "40001"))
			.onStatementFailure((seen) -> {
				// Arrives as the second try has failed, before the wait for the third.
				if (seen == 2) {
					Thread.currentThread().interrupt();
				}
			});
		R2dbcRegistry registry = registry(faults, this.table, Duration.ofSeconds(30));
		long timestamp = freshTimestamp();
		try {
			assertThatExceptionOfType(RegistryException.class).isThrownBy(() -> registry.allocate(timestamp, 10))
				.withCauseInstanceOf(R2dbcRollbackException.class);
			assertThat(Thread.currentThread().isInterrupted()).as("the thread is still interrupted").isTrue();
		}
		finally {
			Thread.interrupted();
		}
		assertThat(faults.statementsSeen()).as("tries: none after the interrupt").isEqualTo(2);
		await("the connection returned").atMost(Duration.ofSeconds(5))
			.untilAsserted(() -> assertThat(faults.openConnections()).isZero());
		assertThat(registry(this.pool, this.table, Duration.ofSeconds(30)).allocate(timestamp, 10))
			.as("nothing was reserved")
			.isZero();
	}

	@Test
	void aFailedCommitIsRolledBackBeforeTheNextTry() {
		// H2 reserves in a transaction of its own: without the rollback, the next try
		// would add its block to the one the failed try left in the open transaction.
		String database = "crid-r2dbc-rollback-" + ProcessHandle.current().pid();
		DataSource h2 = R2dbcTestDatabases.h2DataSource(database);
		FaultyConnectionFactory faults = new FaultyConnectionFactory(R2dbcTestDatabases.h2(database)).failCommits(1,
				() -> new R2dbcRollbackException("could not serialize access", "40001"));
		R2dbcRegistry registry = registry(faults, "crid_rollback", Duration.ofSeconds(30));
		registry.ensureSchema();
		assertThat(registry.allocate(7, 10)).isZero();
		assertThat(queryForLong(h2, "SELECT next_seq FROM crid_rollback WHERE ts = 7")).as("reserved once")
			.isEqualTo(10);
		assertThat(registry.allocate(7, 10)).isEqualTo(10);
		await("the connections closed").atMost(Duration.ofSeconds(5))
			.untilAsserted(() -> assertThat(faults.openConnections()).isZero());
	}

	@Test
	void aStatementThatOutlastsTheQueryTimeoutFailsWithinItAndItsConnectionIsNotHandedOutAgain() throws Exception {
		long timestamp = freshTimestamp();
		R2dbcRegistry registry = registry(this.pool, this.table, Duration.ofSeconds(30));
		registry.allocate(timestamp, 10);
		// One connection: the next reservation gets a new one only if the one whose
		// statement ran out of time is not handed out again, behind that statement.
		ConnectionPool single = R2dbcTestDatabases.pool(TestDatabase.POSTGRESQL, 1);
		try (Connection locker = this.admin.getConnection(); Statement lock = locker.createStatement()) {
			R2dbcRegistry impatient = registry(single, this.table, Duration.ofSeconds(1));
			locker.setAutoCommit(false);
			lock.executeQuery("SELECT next_seq FROM " + this.table + " WHERE ts = " + timestamp + " FOR UPDATE")
				.close();
			long started = System.nanoTime();
			assertThatExceptionOfType(RegistryException.class).isThrownBy(() -> impatient.allocate(timestamp, 10))
				.withMessageContaining("reserve 10 sequence numbers of timestamp " + timestamp)
				.withMessageContaining("within the query timeout PT1S")
				.satisfies((ex) -> assertThat(ex.isRetryable()).as("a lock wait that timed out may pass").isTrue());
			assertThat(Duration.ofNanos(System.nanoTime() - started)).as("waited for the lock until the query timeout")
				.isGreaterThanOrEqualTo(Duration.ofSeconds(1))
				.isLessThan(Duration.ofSeconds(1).plus(SLACK));
			assertThat(impatient.allocate(freshTimestamp(), 10)).as("another second, while the row is still locked")
				.isZero();
			locker.rollback();
		}
		finally {
			single.dispose();
		}
		// The statement that ran out of time may still have reserved its block once the
		// lock was gone: a gap, never a block handed out twice.
		assertThat(registry.allocate(timestamp, 10)).isBetween(10L, 20L);
	}

	@Test
	void aRefusedConnectionFailsEveryOperationWithinTheQueryTimeoutAndMayBeRetried() throws IOException {
		String url = unusedPortUrl();
		R2dbcRegistry refused = registry(R2dbcTestDatabases.connectionFactory(TestDatabase.POSTGRESQL, url), this.table,
				Duration.ofSeconds(1));
		Consumer<Runnable> failsInTime = (operation) -> {
			long started = System.nanoTime();
			assertThatExceptionOfType(RegistryException.class).isThrownBy(operation::run)
				.withMessageContaining("refused")
				.satisfies((ex) -> assertThat(ex.isRetryable()).as("a refused connection may pass").isTrue());
			assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(1).plus(SLACK));
		};
		failsInTime.accept(() -> refused.allocate(1, 10));
		failsInTime.accept(() -> refused.checkLayout(CridLayout.DEFAULT));
		failsInTime.accept(() -> refused.evictBefore(1));
		failsInTime.accept(refused::verifySchema);
		failsInTime.accept(refused::ensureSchema);
		failsInTime.accept(refused::check);
		try (CridNode node = CridNode.builder(refused).allocationTimeout(Duration.ofSeconds(1)).build()) {
			long started = System.nanoTime();
			assertThatExceptionOfType(RegistryException.class).isThrownBy(node::nextId);
			assertThat(Duration.ofNanos(System.nanoTime() - started)).as("the node's caller")
				.isLessThan(Duration.ofSeconds(1).plus(CALLER_MARGIN));
		}
	}

	private static String unusedPortUrl() throws IOException {
		String url = TestDatabase.POSTGRESQL.endpoint().url();
		try (ServerSocket socket = new ServerSocket(0)) {
			return url.replaceFirst("//[^/]+/", "//127.0.0.1:" + socket.getLocalPort() + "/");
		}
	}

	private long storedNextSequence(long timestamp) {
		return queryForLong(this.admin, "SELECT next_seq FROM " + this.table + " WHERE ts = " + timestamp);
	}

	private static long queryForLong(DataSource dataSource, String sql) {
		try (Connection connection = dataSource.getConnection();
				Statement statement = connection.createStatement();
				java.sql.ResultSet result = statement.executeQuery(sql)) {
			assertThat(result.next()).as("a row from %s", sql).isTrue();
			return result.getLong(1);
		}
		catch (java.sql.SQLException ex) {
			throw new IllegalStateException(sql, ex);
		}
	}

}
