package dev.crid.autoconfigure;

import dev.crid.testsupport.TestDatabase;

/**
 * The health under database faults, on PostgreSQL.
 */
class PostgreSqlCridHealthFaultIntegrationTest extends AbstractCridHealthFaultIntegrationTest {

	@Override
	protected TestDatabase database() {
		return TestDatabase.POSTGRESQL;
	}

}
