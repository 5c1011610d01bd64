package dev.crid.jdbc;

import com.zaxxer.hikari.HikariDataSource;

import dev.crid.testsupport.TestDatabase;

/**
 * The GENERIC dialect forced on MariaDB, through MySQL Connector/J.
 */
class GenericDialectViaConnectorJIntegrationTest extends GenericDialectOnMariaDbIntegrationTest {

	@Override
	protected HikariDataSource createDataSource(int poolSize) {
		return TestDatabase.MARIADB_THROUGH_MYSQL_DRIVER.dataSource(poolSize);
	}

}
