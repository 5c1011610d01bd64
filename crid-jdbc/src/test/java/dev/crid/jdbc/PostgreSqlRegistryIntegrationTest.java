package dev.crid.jdbc;

import com.zaxxer.hikari.HikariDataSource;

import dev.crid.testsupport.TestDatabase;

/**
 * The registry on PostgreSQL.
 */
class PostgreSqlRegistryIntegrationTest extends AbstractJdbcTemplateRegistryIntegrationTest {

	@Override
	protected HikariDataSource createDataSource(int poolSize) {
		return TestDatabase.POSTGRESQL.dataSource(poolSize);
	}

	@Override
	protected JdbcDialect detectedDialect() {
		return JdbcDialect.POSTGRESQL;
	}

	@Override
	protected String schemaName() {
		return "public";
	}

}
