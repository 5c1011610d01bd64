package dev.crid.data.r2dbc;

import io.r2dbc.h2.H2ConnectionConfiguration;
import io.r2dbc.h2.H2ConnectionFactory;
import io.r2dbc.h2.H2ConnectionOption;
import io.r2dbc.spi.ConnectionFactories;
import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.ConnectionFactoryOptions;
import org.h2.jdbcx.JdbcDataSource;

import dev.crid.testsupport.TestDatabase;

/**
 * R2DBC connection factories for the databases the JDBC tests find: the same server, URL
 * and user, through the R2DBC driver.
 */
final class R2dbcTestDatabases {

	private R2dbcTestDatabases() {
	}

	/**
	 * Returns a connection factory for the database {@link TestDatabase} finds (or skips
	 * the test).
	 */
	static ConnectionFactory connectionFactory(TestDatabase database) {
		TestDatabase.Endpoint endpoint = database.endpoint();
		ConnectionFactoryOptions.Builder options = ConnectionFactoryOptions
			.parse("r2dbc:" + endpoint.url().substring("jdbc:".length()))
			.mutate()
			.option(ConnectionFactoryOptions.USER, endpoint.username());
		if (endpoint.password() != null && !endpoint.password().isEmpty()) {
			options.option(ConnectionFactoryOptions.PASSWORD, endpoint.password());
		}
		return ConnectionFactories.get(options.build());
	}

	/**
	 * Returns a connection factory for an in-memory H2 database that lives as long as the
	 * JVM.
	 */
	static ConnectionFactory h2(String name) {
		return new H2ConnectionFactory(H2ConnectionConfiguration.builder()
			.inMemory(name)
			.property(H2ConnectionOption.DB_CLOSE_DELAY, "-1")
			.build());
	}

	/**
	 * Returns a JDBC data source on the same in-memory H2 database, to look at the
	 * tables.
	 */
	static JdbcDataSource h2DataSource(String name) {
		JdbcDataSource dataSource = new JdbcDataSource();
		dataSource.setURL("jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1");
		return dataSource;
	}

}
