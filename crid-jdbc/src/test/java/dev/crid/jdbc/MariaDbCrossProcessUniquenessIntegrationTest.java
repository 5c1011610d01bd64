package dev.crid.jdbc;

import dev.crid.testsupport.TestDatabase;

/**
 * Uniqueness across processes on MariaDB.
 */
class MariaDbCrossProcessUniquenessIntegrationTest extends AbstractCrossProcessUniquenessIntegrationTest {

	@Override
	protected TestDatabase database() {
		return TestDatabase.MARIADB;
	}

}
