package dev.crid.data.r2dbc;

import javax.sql.DataSource;

import io.r2dbc.spi.ConnectionFactory;

import dev.crid.testsupport.TestDatabase;

/**
 * The R2DBC registry on MariaDB through r2dbc-mariadb.
 */
class MariaDbR2dbcRegistryIntegrationTest extends AbstractR2dbcRegistryIntegrationTest {

	@Override
	protected ConnectionFactory createConnectionFactory() {
		return R2dbcTestDatabases.connectionFactory(TestDatabase.MARIADB);
	}

	@Override
	protected DataSource createDataSource() {
		return TestDatabase.MARIADB.dataSource(2);
	}

	@Override
	protected boolean tellsItsClock() {
		return true;
	}

}
