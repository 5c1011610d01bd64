package dev.crid.data.jdbc;

import javax.sql.DataSource;

import org.h2.jdbcx.JdbcDataSource;

/**
 * The Spring Data JDBC callback on H2.
 */
class H2CridJdbcCallbackIntegrationTest extends AbstractCridJdbcCallbackIntegrationTest {

	@Override
	protected DataSource createDataSource() {
		JdbcDataSource dataSource = new JdbcDataSource();
		dataSource.setURL("jdbc:h2:mem:crid-data-jdbc;DB_CLOSE_DELAY=-1");
		return dataSource;
	}

}
