package dev.crid.jdbc;

import java.sql.Connection;
import java.sql.SQLException;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.InvalidDataAccessApiUsageException;

import dev.crid.sql.SqlDialect;
import dev.crid.testsupport.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The registry on MariaDB through MySQL Connector/J, which reports the server as MySQL
 * and refuses {@code INSERT ... RETURNING} as a query: the MARIADB dialect is detected
 * and reserves with the MYSQL dialect's statements, which its details name.
 */
class MariaDbViaConnectorJRegistryIntegrationTest extends MariaDbRegistryIntegrationTest {

	@Override
	protected HikariDataSource createDataSource(int poolSize) {
		return TestDatabase.MARIADB_THROUGH_MYSQL_DRIVER.dataSource(poolSize);
	}

	@Override
	protected SqlDialect statementsInUse() {
		return SqlDialect.MYSQL;
	}

	@Test
	void theStatementTheDriverRefusesIsALastingFailure() throws SQLException {
		// What the MARIADB dialect's own statements do through this driver: the driver
		// refuses the reservation before sending it, the same way every time, so a node
		// must not retry it.
		String table = uniqueTableName("refused");
		try (HikariDataSource dataSource = createDataSource(1); Connection connection = dataSource.getConnection()) {
			SQLException refused = SessionStores
				.failureOf(SessionStores.on(connection, SqlDialect.MARIADB, table, true), (store) -> {
					store.ensureSchema();
					store.reserve(1, 10);
				});
			assertThat(refused.getMessage()).contains("cannot issue statements that do not produce result sets");
			DataAccessException translated = RegistryFailures.translate("reserve", refused);
			assertThat(translated).isInstanceOf(InvalidDataAccessApiUsageException.class);
			assertThat(RegistryFailures.isRetryable(translated)).isFalse();
		}
		finally {
			try (HikariDataSource dataSource = createDataSource(1)) {
				TestDatabase.dropRegistryTables(dataSource, table);
			}
		}
	}

}
