package dev.crid.jdbc;

import dev.crid.testsupport.TestDatabase;

/**
 * A node's clock stepped an hour forwards and backwards, on PostgreSQL.
 */
class PostgreSqlClockStepIntegrationTest extends AbstractClockStepIntegrationTest {

	@Override
	protected TestDatabase database() {
		return TestDatabase.POSTGRESQL;
	}

}
