package dev.crid.r2dbc;

import javax.sql.DataSource;

import io.r2dbc.spi.ConnectionFactory;

import dev.crid.sql.SqlDialect;
import dev.crid.testsupport.R2dbcTestDatabases;
import dev.crid.testsupport.TestDatabase;

/**
 * The R2DBC registry on PostgreSQL through r2dbc-postgresql and a pool.
 */
class PostgreSqlR2dbcRegistryIntegrationTest extends AbstractR2dbcRegistryIntegrationTest {

	@Override
	protected ConnectionFactory createConnectionFactory() {
		return R2dbcTestDatabases.pool(TestDatabase.POSTGRESQL, 10);
	}

	@Override
	protected DataSource createDataSource() {
		return TestDatabase.POSTGRESQL.dataSource(2);
	}

	@Override
	protected SqlDialect dialect() {
		return SqlDialect.POSTGRESQL;
	}

	@Override
	protected boolean tellsItsClock() {
		return true;
	}

}
