package dev.crid.data.jdbc;

import javax.sql.DataSource;

import dev.crid.testsupport.TestDatabase;

/**
 * The Spring Data JDBC callback on PostgreSQL.
 */
class PostgreSqlCridJdbcCallbackIntegrationTest extends AbstractCridJdbcCallbackIntegrationTest {

	@Override
	protected DataSource createDataSource() {
		return TestDatabase.POSTGRESQL.dataSource(4);
	}

}
