package dev.crid.r2dbc;

import javax.sql.DataSource;

import io.r2dbc.spi.ConnectionFactory;

import dev.crid.sql.SqlDialect;
import dev.crid.testsupport.R2dbcTestDatabases;

/**
 * The R2DBC registry on H2 through r2dbc-h2.
 */
class H2R2dbcRegistryIntegrationTest extends AbstractR2dbcRegistryIntegrationTest {

	private static final String DATABASE = "crid-r2dbc-registry";

	@Override
	protected ConnectionFactory createConnectionFactory() {
		return R2dbcTestDatabases.h2(DATABASE);
	}

	@Override
	protected DataSource createDataSource() {
		return R2dbcTestDatabases.h2DataSource(DATABASE);
	}

	@Override
	protected SqlDialect dialect() {
		return SqlDialect.H2;
	}

	@Override
	protected boolean tellsItsClock() {
		return false;
	}

}
