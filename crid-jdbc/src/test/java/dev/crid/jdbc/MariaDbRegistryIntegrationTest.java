package dev.crid.jdbc;

import java.sql.Connection;
import java.sql.SQLException;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Test;

import dev.crid.testsupport.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The registry on MariaDB.
 */
class MariaDbRegistryIntegrationTest extends AbstractJdbcTemplateRegistryIntegrationTest {

	@Override
	protected HikariDataSource createDataSource(int poolSize) {
		return TestDatabase.MARIADB.dataSource(poolSize);
	}

	@Override
	protected JdbcDialect detectedDialect() {
		return JdbcDialect.MARIADB;
	}

	@Test
	void aServerWithoutGaleraIsNoGaleraMember() throws SQLException {
		try (HikariDataSource dataSource = createDataSource(1); Connection connection = dataSource.getConnection()) {
			assertThat(MariaDbDialect.isGaleraMember(connection)).isFalse();
		}
	}

	@Override
	protected String schemaName() {
		return MariaDbUsers.currentDatabase(jdbcTemplate());
	}

}
