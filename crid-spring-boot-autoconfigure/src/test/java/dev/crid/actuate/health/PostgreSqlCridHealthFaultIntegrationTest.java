package dev.crid.actuate.health;

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
