package dev.crid.autoconfigure;

import dev.crid.testsupport.TestDatabase;

/**
 * Named nodes on PostgreSQL.
 */
class PostgreSqlNamedNodesIntegrationTest extends AbstractNamedNodesDatabaseIntegrationTest {

	@Override
	protected TestDatabase database() {
		return TestDatabase.POSTGRESQL;
	}

}
