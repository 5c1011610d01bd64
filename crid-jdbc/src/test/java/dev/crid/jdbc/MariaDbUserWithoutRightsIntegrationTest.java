package dev.crid.jdbc;

import dev.crid.testsupport.TestDatabase;

/**
 * A user without rights on the registry's tables, on MariaDB.
 */
class MariaDbUserWithoutRightsIntegrationTest extends AbstractUserWithoutRightsIntegrationTest {

	@Override
	protected TestDatabase database() {
		return TestDatabase.MARIADB;
	}

	@Override
	protected String[] createUser(String user, String table) {
		return MariaDbUsers.createUser(user, PASSWORD, table);
	}

	@Override
	protected String[] dropUser(String user, String table) {
		return MariaDbUsers.dropUser(user);
	}

}
