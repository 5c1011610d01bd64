package dev.crid.jdbc;

import com.zaxxer.hikari.HikariDataSource;

import dev.crid.testsupport.TestDatabase;

/**
 * The MYSQL dialect ({@code LAST_INSERT_ID(expr)}, no {@code RETURNING}), forced on
 * MariaDB, which speaks the same SQL.
 */
class MySqlDialectOnMariaDbIntegrationTest extends AbstractJdbcTemplateRegistryIntegrationTest {

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
		return JdbcDialect.MYSQL;
	}

	@Override
	protected String schemaName() {
		return MariaDbUsers.currentDatabase(jdbcTemplate());
	}

}
