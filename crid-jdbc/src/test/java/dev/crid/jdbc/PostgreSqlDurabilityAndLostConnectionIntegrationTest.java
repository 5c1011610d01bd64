package dev.crid.jdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.crid.RegistryException;
import dev.crid.sql.RegistryStore;
import dev.crid.sql.SqlDialect;
import dev.crid.testsupport.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * PostgreSQL specifics: a reservation commits durably even on a session with synchronous
 * commit off, and a connection lost in the middle of a reservation surfaces as a
 * {@link RegistryException} at once.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PostgreSqlDurabilityAndLostConnectionIntegrationTest {

	private final String table = "crid_pg_specifics_" + ProcessHandle.current().pid();

	private HikariDataSource dataSource;

	private JdbcTemplate jdbcTemplate;

	@BeforeAll
	void createTable() {
		this.dataSource = TestDatabase.POSTGRESQL.dataSource(4);
		this.jdbcTemplate = new JdbcTemplate(this.dataSource);
		JdbcTemplateRegistry registry = JdbcTemplateRegistry.builder(this.jdbcTemplate).tableName(this.table).build();
		registry.ensureSchema();
		// The first reservation adds the metadata row that every later one locks.
		registry.allocate(1, 1);
	}

	@AfterAll
	void dropTable() {
		if (this.dataSource != null) {
			TestDatabase.dropRegistryTables(this.dataSource, this.table);
			this.dataSource.close();
		}
	}

	@Test
	void theReservationTurnsSynchronousCommitOnForItsOwnTransaction() throws Exception {
		String goMade = this.table + "_go";
		try (Connection connection = this.dataSource.getConnection();
				Statement statement = connection.createStatement()) {
			statement.execute("SET synchronous_commit = off");
			statement.execute("CREATE TABLE " + goMade + " (ts BIGINT PRIMARY KEY, next_seq BIGINT NOT NULL)");
			connection.setAutoCommit(false);
			long start = SessionStores.on(connection, SqlDialect.POSTGRESQL, this.table, true).reserve(7, 10).start();
			assertThat(start).isZero();
			assertThat(setting(statement)).as("in the reservation's transaction").isEqualTo("on");
			connection.commit();
			assertThat(setting(statement)).as("the session's own setting afterwards").isEqualTo("off");
			// Without the metadata table (beside a table the Go crid made), the same,
			// once
			// the registry has found, outside the transaction, that it runs without it.
			connection.setAutoCommit(true);
			RegistryStore<SQLException> unguarded = SessionStores.on(connection, SqlDialect.POSTGRESQL, goMade, false);
			assertThat(unguarded.reserve(7, 10).start()).isZero();
			assertThat(unguarded.withoutMetadata()).isTrue();
			connection.setAutoCommit(false);
			assertThat(unguarded.reserve(7, 10).start()).isEqualTo(10);
			assertThat(setting(statement)).as("in the unguarded reservation's transaction").isEqualTo("on");
			connection.commit();
			assertThat(setting(statement)).as("the session's own setting afterwards").isEqualTo("off");
			statement.execute("RESET synchronous_commit");
			connection.setAutoCommit(true);
		}
		finally {
			TestDatabase.dropRegistryTables(this.dataSource, goMade);
		}
	}

	@Test
	void aConnectionLostDuringAReservationFailsItAtOnce() throws Exception {
		String application = "crid-lost-" + ProcessHandle.current().pid();
		long timestamp = 8;
		JdbcTemplateRegistry registry = JdbcTemplateRegistry.builder(this.jdbcTemplate).tableName(this.table).build();
		registry.allocate(timestamp, 10);
		TestDatabase.Endpoint endpoint = TestDatabase.POSTGRESQL.endpoint();
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(endpoint.url());
		config.setUsername(endpoint.username());
		config.setPassword(endpoint.password());
		config.setMaximumPoolSize(1);
		config.addDataSourceProperty("ApplicationName", application);
		try (HikariDataSource victimPool = new HikariDataSource(config)) {
			JdbcTemplateRegistry victim = JdbcTemplateRegistry.builder(new JdbcTemplate(victimPool))
				.tableName(this.table)
				.queryTimeout(Duration.ofSeconds(10))
				.build();
			try (Connection locker = this.dataSource.getConnection(); Statement lock = locker.createStatement()) {
				locker.setAutoCommit(false);
				lock.executeQuery("SELECT next_seq FROM " + this.table + " WHERE ts = " + timestamp + " FOR UPDATE")
					.close();
				CompletableFuture<Long> reservation = CompletableFuture
					.supplyAsync(() -> victim.allocate(timestamp, 10));
				await().atMost(Duration.ofSeconds(5))
					.until(() -> this.jdbcTemplate.queryForObject(
							"SELECT COUNT(*) FROM pg_stat_activity "
									+ "WHERE application_name = ? AND wait_event_type = 'Lock'",
							Long.class, application) == 1);
				long killed = System.nanoTime();
				this.jdbcTemplate.queryForList(
						"SELECT pg_terminate_backend(pid) FROM pg_stat_activity " + "WHERE application_name = ?",
						application);
				assertThat(reservation).failsWithin(5, TimeUnit.SECONDS)
					.withThrowableThat()
					.havingCause()
					.isInstanceOf(RegistryException.class)
					.withMessageContaining("reserve 10 sequence numbers of timestamp " + timestamp);
				// At once: the driver reads the end of the connection (measured: the
				// whole
				// test within 0.4 s), where the query timeout is 10 s.
				assertThat(Duration.ofNanos(System.nanoTime() - killed)).as("from the kill to the failure")
					.isLessThan(Duration.ofSeconds(1));
				locker.rollback();
			}
			assertThat(victim.allocate(timestamp, 10)).as("a new connection serves the next reservation").isEqualTo(10);
		}
	}

	private static String setting(Statement statement) throws Exception {
		try (ResultSet result = statement.executeQuery("SHOW synchronous_commit")) {
			result.next();
			return result.getString(1);
		}
	}

}
