package dev.crid.autoconfigure;

import dev.crid.testsupport.TestDatabase;

/**
 * Named nodes on MariaDB.
 */
class MariaDbNamedNodesIntegrationTest extends AbstractNamedNodesDatabaseIntegrationTest {

	@Override
	protected TestDatabase database() {
		return TestDatabase.MARIADB;
	}

}
