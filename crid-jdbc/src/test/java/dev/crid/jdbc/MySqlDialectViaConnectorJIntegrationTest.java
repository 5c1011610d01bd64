package dev.crid.jdbc;

import com.zaxxer.hikari.HikariDataSource;

import dev.crid.testsupport.TestDatabase;

/**
 * The MYSQL dialect ({@code LAST_INSERT_ID(expr)}) forced on MariaDB, through MySQL
 * Connector/J.
 */
class MySqlDialectViaConnectorJIntegrationTest extends MySqlDialectOnMariaDbIntegrationTest {

	@Override
	protected HikariDataSource createDataSource(int poolSize) {
		return TestDatabase.MARIADB_THROUGH_MYSQL_DRIVER.dataSource(poolSize);
	}

}
