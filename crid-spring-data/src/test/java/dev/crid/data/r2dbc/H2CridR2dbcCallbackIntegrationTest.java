package dev.crid.data.r2dbc;

import io.r2dbc.spi.ConnectionFactory;

import dev.crid.testsupport.R2dbcTestDatabases;

/**
 * The R2DBC callback on H2 through r2dbc-h2.
 */
class H2CridR2dbcCallbackIntegrationTest extends AbstractCridR2dbcCallbackIntegrationTest {

	@Override
	protected ConnectionFactory createConnectionFactory() {
		return R2dbcTestDatabases.h2("crid-r2dbc-callback");
	}

}
