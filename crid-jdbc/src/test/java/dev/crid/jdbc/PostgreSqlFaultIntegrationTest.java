package dev.crid.jdbc;

import dev.crid.testsupport.TestDatabase;

/**
 * Network faults between nodes and their registry on PostgreSQL.
 */
class PostgreSqlFaultIntegrationTest extends AbstractFaultIntegrationTest {

	@Override
	protected TestDatabase database() {
		return TestDatabase.POSTGRESQL;
	}

}
