package dev.crid.jdbc;

import dev.crid.testsupport.TestDatabase;

/**
 * A table the Go crid made, on MariaDB through MySQL Connector/J.
 */
class MariaDbViaConnectorJGoMadeTableIntegrationTest extends MariaDbGoMadeTableIntegrationTest {

	@Override
	protected TestDatabase database() {
		return TestDatabase.MARIADB_THROUGH_MYSQL_DRIVER;
	}

}
