package dev.crid.jdbc;

import com.zaxxer.hikari.HikariDataSource;

/**
 * The GENERIC dialect (update, else insert, retried on a duplicate key), forced on H2.
 */
class GenericDialectOnH2IntegrationTest extends AbstractJdbcTemplateRegistryIntegrationTest {

	@Override
	protected HikariDataSource createDataSource(int poolSize) {
		return H2.dataSource(poolSize);
	}

	@Override
	protected JdbcDialect detectedDialect() {
		return JdbcDialect.H2;
	}

	@Override
	protected JdbcDialect forcedDialect() {
		return JdbcDialect.GENERIC;
	}

	@Override
	protected String schemaName() {
		return "PUBLIC";
	}

}
