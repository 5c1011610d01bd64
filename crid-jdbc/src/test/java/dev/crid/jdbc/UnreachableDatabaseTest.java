package dev.crid.jdbc;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.function.Consumer;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

import dev.crid.CridLayout;
import dev.crid.CridNode;
import dev.crid.RegistryException;
import dev.crid.testsupport.FaultLoad;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.entry;

/**
 * A database nobody listens for: every operation fails with a {@link RegistryException}
 * that names the refused connection and may pass (the registry's own check too), while
 * its details never try to connect, within the query timeout, also behind a pool that
 * would wait half a minute for a connection; and a node fails its callers within the
 * allocation timeout.
 */
class UnreachableDatabaseTest {

	private static final Duration TIMEOUT = Duration.ofSeconds(1);

	private static final Duration SLACK = Duration.ofSeconds(2);

	/**
	 * What a node's caller may take beyond its allocation timeout: the margin the fault
	 * tests allow a loaded machine to schedule the threads that notice a deadline.
	 */
	private static final Duration CALLER_MARGIN = FaultLoad.CALL_MARGIN;

	@Test
	void failsFastWhenTheServerRefusesConnections() throws IOException {
		DataSource dataSource = new DriverManagerDataSource(unusedPortUrl(), "postgres", "");
		assertEveryOperationFailsInTime(
				JdbcTemplateRegistry.builder(new JdbcTemplate(dataSource)).queryTimeout(TIMEOUT).build(), TIMEOUT,
				(failure) -> assertThat(failure).hasMessageContaining("refused")
					.satisfies((ex) -> assertThat(ex.isRetryable()).as("a refused connection may pass").isTrue()));
	}

	@Test
	void behindAnEmptyPoolFailsAtOnceNamingTheRefusal() throws IOException {
		// The pool holds no connection, so the registry connects directly instead of
		// waiting the pool's 30 s: it learns at once that the server refuses.
		try (HikariDataSource dataSource = pool(Duration.ofSeconds(30))) {
			assertEveryOperationFailsInTime(
					JdbcTemplateRegistry.builder(new JdbcTemplate(dataSource)).queryTimeout(TIMEOUT).build(), TIMEOUT,
					(failure) -> assertThat(failure).hasMessageContaining("refused")
						.satisfies((ex) -> assertThat(ex.isRetryable()).as("a refused connection may pass").isTrue()));
		}
	}

	@Test
	void nodeFailsCallersWithinTheAllocationTimeoutWhenThePoolWouldWaitHalfAMinute() throws IOException {
		try (HikariDataSource dataSource = pool(Duration.ofSeconds(30));
				CridNode node = CridNode.builder(JdbcTemplateRegistry.builder(new JdbcTemplate(dataSource)).build())
					.allocationTimeout(TIMEOUT)
					.build()) {
			assertFailsInTime(node::nextId, TIMEOUT.plus(CALLER_MARGIN),
					(failure) -> assertThat(failure).hasMessageContaining("within the allocation timeout of PT1S"));
			long started = System.nanoTime();
			node.close();
			assertThat(Duration.ofNanos(System.nanoTime() - started)).as("close interrupts the wait for a connection")
				.isLessThan(SLACK);
		}
	}

	@Test
	void detailsNeverConnect() throws IOException {
		DataSource dataSource = new DriverManagerDataSource(unusedPortUrl(), "postgres", "");
		JdbcTemplateRegistry registry = JdbcTemplateRegistry.builder(new JdbcTemplate(dataSource))
			.tableName("ids")
			.build();
		assertThat(registry.details()).containsExactly(entry("table", "ids"));
	}

	private static HikariDataSource pool(Duration connectionTimeout) throws IOException {
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(unusedPortUrl());
		config.setUsername("postgres");
		config.setInitializationFailTimeout(-1);
		config.setConnectionTimeout(connectionTimeout.toMillis());
		config.setMaximumPoolSize(1);
		return new HikariDataSource(config);
	}

	private static void assertEveryOperationFailsInTime(JdbcTemplateRegistry registry, Duration within,
			Consumer<RegistryException> check) {
		Duration bound = within.plus(SLACK);
		assertFailsInTime(registry::dialect, bound, check);
		assertFailsInTime(() -> registry.allocate(1, 10), bound, check);
		assertFailsInTime(() -> registry.checkLayout(CridLayout.DEFAULT), bound, check);
		assertFailsInTime(() -> registry.evictBefore(1), bound, check);
		assertFailsInTime(registry::verifySchema, bound, check);
		assertFailsInTime(registry::check, bound, check);
		assertFailsInTime(registry::ensureSchema, bound, check);
	}

	private static void assertFailsInTime(Runnable operation, Duration bound, Consumer<RegistryException> check) {
		long started = System.nanoTime();
		assertThatExceptionOfType(RegistryException.class).isThrownBy(operation::run)
			.isNotInstanceOf(MissingTableException.class)
			.satisfies(check);
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(bound);
	}

	private static String unusedPortUrl() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return "jdbc:postgresql://127.0.0.1:" + socket.getLocalPort() + "/test?connectTimeout=30";
		}
	}

}
