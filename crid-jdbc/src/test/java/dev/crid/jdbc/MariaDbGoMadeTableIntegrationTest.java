package dev.crid.jdbc;

import dev.crid.testsupport.TestDatabase;

/**
 * A table the Go crid made, on MariaDB.
 */
class MariaDbGoMadeTableIntegrationTest extends AbstractGoMadeTableIntegrationTest {

	@Override
	protected TestDatabase database() {
		return TestDatabase.MARIADB;
	}

	@Override
	protected String[] createUserWithoutCreateRights(String user, String table) {
		return MariaDbUsers.createUserWithoutCreateRights(user, PASSWORD);
	}

	@Override
	protected String[] dropUser(String user, String table) {
		return MariaDbUsers.dropUser(user);
	}

}
