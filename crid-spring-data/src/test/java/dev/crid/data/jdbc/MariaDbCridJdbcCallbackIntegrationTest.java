package dev.crid.data.jdbc;

import javax.sql.DataSource;

import dev.crid.testsupport.TestDatabase;

/**
 * The Spring Data JDBC callback on MariaDB.
 */
class MariaDbCridJdbcCallbackIntegrationTest extends AbstractCridJdbcCallbackIntegrationTest {

	@Override
	protected DataSource createDataSource() {
		return TestDatabase.MARIADB.dataSource(4);
	}

}
