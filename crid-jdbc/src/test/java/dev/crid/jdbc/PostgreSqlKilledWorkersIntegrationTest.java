package dev.crid.jdbc;

import dev.crid.testsupport.TestDatabase;

/**
 * Processes killed mid-run and started again, on PostgreSQL.
 */
class PostgreSqlKilledWorkersIntegrationTest extends AbstractKilledWorkersIntegrationTest {

	@Override
	protected TestDatabase database() {
		return TestDatabase.POSTGRESQL;
	}

}
