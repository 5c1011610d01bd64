package dev.crid.jdbc;

import dev.crid.testsupport.TestDatabase;

/**
 * Processes killed mid-run and started again, on MariaDB.
 */
class MariaDbKilledWorkersIntegrationTest extends AbstractKilledWorkersIntegrationTest {

	@Override
	protected TestDatabase database() {
		return TestDatabase.MARIADB;
	}

}
