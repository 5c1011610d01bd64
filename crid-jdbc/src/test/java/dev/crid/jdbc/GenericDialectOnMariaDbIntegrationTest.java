package dev.crid.jdbc;

import com.zaxxer.hikari.HikariDataSource;

import dev.crid.testsupport.TestDatabase;

/**
 * The GENERIC dialect (update, else insert, retried on a duplicate key), forced on
 * MariaDB.
 */
class GenericDialectOnMariaDbIntegrationTest extends AbstractJdbcTemplateRegistryIntegrationTest {

	@Override
	protected HikariDataSource createDataSource(int poolSize) {
		return TestDatabase.MARIADB.dataSource(poolSize);
	}

	@Override
	protected JdbcDialect detectedDialect() {
		return JdbcDialect.MARIADB;
	}

	@Override
	protected JdbcDialect forcedDialect() {
		return JdbcDialect.GENERIC;
	}

	@Override
	protected String schemaName() {
		return MariaDbUsers.currentDatabase(jdbcTemplate());
	}

}
