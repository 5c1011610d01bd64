package dev.crid.jdbc;

import java.sql.Connection;
import java.sql.SQLException;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.InvalidDataAccessApiUsageException;

import dev.crid.testsupport.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The registry on MariaDB through MySQL Connector/J, which reports the server as MySQL
 * and refuses {@code INSERT ... RETURNING} as a query: the MARIADB dialect is detected
 * and reserves the way that driver allows.
 */
class MariaDbViaConnectorJRegistryIntegrationTest extends MariaDbRegistryIntegrationTest {

	@Override
	protected HikariDataSource createDataSource(int poolSize) {
		return TestDatabase.MARIADB_THROUGH_MYSQL_DRIVER.dataSource(poolSize);
	}

	@Test
	void theStatementTheDriverRefusesIsALastingFailure() throws SQLException {
		// What the MARIADB dialect ran through this driver before it chose its statement
		// by the driver: the driver refuses it before sending it, the same way every
		// time, so a node must not retry it.
		try (HikariDataSource dataSource = createDataSource(1); Connection connection = dataSource.getConnection()) {
			SQLException refused = catchThrowableOfType(SQLException.class, () -> new MariaDbDialect()
				.allocate(connection, new RegistryTables(uniqueTableName("refused")), 1, 10, true, 5));
			assertThat(refused.getMessage()).contains("cannot issue statements that do not produce result sets");
			DataAccessException translated = RegistryFailures.translate("reserve", refused);
			assertThat(translated).isInstanceOf(InvalidDataAccessApiUsageException.class);
			assertThat(RegistryFailures.isRetryable(translated)).isFalse();
		}
	}

}
