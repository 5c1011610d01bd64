package dev.crid.r2dbc;

import javax.sql.DataSource;

import io.r2dbc.spi.ConnectionFactory;

import dev.crid.sql.SqlDialect;
import dev.crid.testsupport.R2dbcTestDatabases;
import dev.crid.testsupport.TestDatabase;

/**
 * The R2DBC registry on MariaDB through r2dbc-mariadb and a pool.
 */
class MariaDbR2dbcRegistryIntegrationTest extends AbstractR2dbcRegistryIntegrationTest {

	@Override
	protected ConnectionFactory createConnectionFactory() {
		return R2dbcTestDatabases.pool(TestDatabase.MARIADB, 10);
	}

	@Override
	protected DataSource createDataSource() {
		return TestDatabase.MARIADB.dataSource(2);
	}

	@Override
	protected SqlDialect dialect() {
		return SqlDialect.MARIADB;
	}

	@Override
	protected boolean tellsItsClock() {
		return true;
	}

}
