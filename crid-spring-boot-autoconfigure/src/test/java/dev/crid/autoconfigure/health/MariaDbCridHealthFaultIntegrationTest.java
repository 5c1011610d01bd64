package dev.crid.autoconfigure;

import dev.crid.testsupport.TestDatabase;

/**
 * The health under database faults, on MariaDB.
 */
class MariaDbCridHealthFaultIntegrationTest extends AbstractCridHealthFaultIntegrationTest {

	@Override
	protected TestDatabase database() {
		return TestDatabase.MARIADB;
	}

}
