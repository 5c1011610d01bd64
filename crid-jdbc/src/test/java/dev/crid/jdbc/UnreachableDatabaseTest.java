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

import dev.crid.RegistryException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A database nobody listens for: every operation fails with a {@link RegistryException} within the query
 * timeout, even behind a pool that would wait half a minute for a connection.
 */
class UnreachableDatabaseTest {

	private static final Duration TIMEOUT = Duration.ofSeconds(1);

	private static final Duration SLACK = Duration.ofSeconds(2);

	@Test
	void failsFastWhenTheServerRefusesConnections() throws IOException {
		DataSource dataSource = new DriverManagerDataSource(unusedPortUrl(), "postgres", "");
		assertEveryOperationFailsInTime(JdbcTemplateRegistry.builder(new JdbcTemplate(dataSource))
			.queryTimeout(TIMEOUT)
			.build(), (failure) -> assertThat(failure).hasMessageContaining("Connection"));
	}

	@Test
	void failsWithinTheQueryTimeoutWhenThePoolWouldKeepTrying() throws IOException {
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(unusedPortUrl());
		config.setUsername("postgres");
		config.setInitializationFailTimeout(-1);
		config.setConnectionTimeout(30_000);
		config.setMaximumPoolSize(1);
		try (HikariDataSource dataSource = new HikariDataSource(config)) {
			assertEveryOperationFailsInTime(JdbcTemplateRegistry.builder(new JdbcTemplate(dataSource))
				.queryTimeout(TIMEOUT)
				.build(), (failure) -> assertThat(failure).hasMessageContaining("within the query timeout of PT1S"));
		}
	}

	private static void assertEveryOperationFailsInTime(JdbcTemplateRegistry registry,
			Consumer<RegistryException> check) {
		assertFailsInTime(registry::dialect, check);
		assertFailsInTime(() -> registry.allocate(1, 10), check);
		assertFailsInTime(registry::verifySchema, check);
		assertFailsInTime(registry::ensureSchema, check);
	}

	private static void assertFailsInTime(Runnable operation, Consumer<RegistryException> check) {
		long started = System.nanoTime();
		assertThatExceptionOfType(RegistryException.class).isThrownBy(operation::run)
			.isNotInstanceOf(MissingTableException.class)
			.satisfies(check);
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(TIMEOUT.plus(SLACK));
	}

	private static String unusedPortUrl() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return "jdbc:postgresql://127.0.0.1:" + socket.getLocalPort() + "/test?connectTimeout=30";
		}
	}

}
