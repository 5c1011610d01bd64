package dev.crid.jdbc;

import dev.crid.testsupport.TestDatabase;

/**
 * The soak run on PostgreSQL; only with {@code -Psoak}.
 */
class PostgreSqlSoakIntegrationTest extends AbstractSoakIntegrationTest {

	@Override
	protected TestDatabase database() {
		return TestDatabase.POSTGRESQL;
	}

}
