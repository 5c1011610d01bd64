package dev.crid.jdbc;

import com.zaxxer.hikari.HikariDataSource;

import dev.crid.testsupport.TestDatabase;

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

	@Override
	protected String schemaName() {
		return MariaDbUsers.currentDatabase(jdbcTemplate());
	}

}
