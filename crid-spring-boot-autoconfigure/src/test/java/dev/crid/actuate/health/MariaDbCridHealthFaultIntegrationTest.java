package dev.crid.actuate.health;

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
