package dev.crid.jdbc;

import dev.crid.testsupport.TestDatabase;

/**
 * Uniqueness across processes on PostgreSQL.
 */
class PostgreSqlCrossProcessUniquenessIntegrationTest extends AbstractCrossProcessUniquenessIntegrationTest {

	@Override
	protected TestDatabase database() {
		return TestDatabase.POSTGRESQL;
	}

}
