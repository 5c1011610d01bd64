package dev.crid.data.r2dbc;

import javax.sql.DataSource;

import io.r2dbc.spi.ConnectionFactory;

import dev.crid.testsupport.TestDatabase;

/**
 * The R2DBC registry on PostgreSQL through r2dbc-postgresql.
 */
class PostgreSqlR2dbcRegistryIntegrationTest extends AbstractR2dbcRegistryIntegrationTest {

	@Override
	protected ConnectionFactory createConnectionFactory() {
		return R2dbcTestDatabases.connectionFactory(TestDatabase.POSTGRESQL);
	}

	@Override
	protected DataSource createDataSource() {
		return TestDatabase.POSTGRESQL.dataSource(2);
	}

	@Override
	protected boolean tellsItsClock() {
		return true;
	}

}
