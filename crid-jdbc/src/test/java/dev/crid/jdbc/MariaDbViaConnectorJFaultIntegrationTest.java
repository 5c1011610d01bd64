package dev.crid.jdbc;

import java.time.Duration;

import dev.crid.testsupport.TestDatabase;

/**
 * Outages between nodes and their registry on MariaDB through MySQL Connector/J, which
 * fails, times out and reconnects by rules of its own. Flapping and slow links run on
 * MariaDB's own driver only ({@link MariaDbFaultIntegrationTest}); the outages here are
 * short, a 3 s allocation timeout and a 4 s outage, to keep the build's time.
 */
class MariaDbViaConnectorJFaultIntegrationTest extends AbstractJdbcFaultIntegrationTest {

	@Override
	protected TestDatabase database() {
		return TestDatabase.MARIADB_THROUGH_MYSQL_DRIVER;
	}

	@Override
	protected Duration allocationTimeout() {
		return Duration.ofSeconds(3);
	}

}
