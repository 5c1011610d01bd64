package dev.crid.data.r2dbc;

import io.r2dbc.spi.ConnectionFactory;

import dev.crid.testsupport.R2dbcTestDatabases;
import dev.crid.testsupport.TestDatabase;

/**
 * The R2DBC callback on MariaDB through r2dbc-mariadb.
 */
class MariaDbCridR2dbcCallbackIntegrationTest extends AbstractCridR2dbcCallbackIntegrationTest {

	@Override
	protected ConnectionFactory createConnectionFactory() {
		return R2dbcTestDatabases.connectionFactory(TestDatabase.MARIADB);
	}

}
