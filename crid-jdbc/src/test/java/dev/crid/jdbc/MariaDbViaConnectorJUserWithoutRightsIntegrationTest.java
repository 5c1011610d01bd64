package dev.crid.jdbc;

import dev.crid.testsupport.TestDatabase;

/**
 * A user without rights on the registry's tables, on MariaDB through MySQL Connector/J.
 */
class MariaDbViaConnectorJUserWithoutRightsIntegrationTest extends MariaDbUserWithoutRightsIntegrationTest {

	@Override
	protected TestDatabase database() {
		return TestDatabase.MARIADB_THROUGH_MYSQL_DRIVER;
	}

}
