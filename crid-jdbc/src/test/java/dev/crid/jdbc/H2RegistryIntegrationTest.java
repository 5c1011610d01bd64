package dev.crid.jdbc;

import com.zaxxer.hikari.HikariDataSource;

/**
 * The registry on an in-process H2 database.
 */
class H2RegistryIntegrationTest extends AbstractJdbcTemplateRegistryIntegrationTest {

	@Override
	protected HikariDataSource createDataSource(int poolSize) {
		return H2.dataSource(poolSize);
	}

	@Override
	protected JdbcDialect detectedDialect() {
		return JdbcDialect.H2;
	}

	@Override
	protected int reservationsPerThread() {
		return 1_000;
	}

	@Override
	protected String schemaName() {
		return "PUBLIC";
	}

}
