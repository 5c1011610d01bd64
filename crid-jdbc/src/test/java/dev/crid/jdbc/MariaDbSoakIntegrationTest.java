package dev.crid.jdbc;

import dev.crid.testsupport.TestDatabase;

/**
 * The soak run on MariaDB; only with {@code -Psoak}.
 */
class MariaDbSoakIntegrationTest extends AbstractSoakIntegrationTest {

	@Override
	protected TestDatabase database() {
		return TestDatabase.MARIADB;
	}

}
