package dev.crid.testsupport;

import java.time.Duration;

import javax.sql.DataSource;

import io.r2dbc.h2.H2ConnectionConfiguration;
import io.r2dbc.h2.H2ConnectionFactory;
import io.r2dbc.h2.H2ConnectionOption;
import io.r2dbc.pool.ConnectionPool;
import io.r2dbc.pool.ConnectionPoolConfiguration;
import io.r2dbc.spi.ConnectionFactories;
import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.ConnectionFactoryOptions;
import org.h2.jdbcx.JdbcDataSource;

/**
 * R2DBC connection factories for the databases the JDBC tests find (the same server, URL
 * and user, through the R2DBC driver), pooled as Spring Boot pools them, and an in-memory
 * H2 database on R2DBC and JDBC at once. The R2DBC drivers and the pool are optional
 * here: a module's tests bring the ones they use.
 */
public final class R2dbcTestDatabases {

	private R2dbcTestDatabases() {
	}

	/**
	 * Returns a connection factory for the database {@link TestDatabase} finds (or skips
	 * the test).
	 * @param database the database
	 * @return the connection factory, one connection per {@code create()}
	 */
	public static ConnectionFactory connectionFactory(TestDatabase database) {
		return connectionFactory(database, database.endpoint().url());
	}

	/**
	 * Returns a connection factory for the database {@link TestDatabase} finds (or skips
	 * the test), at the given JDBC URL: the database's own, or a proxy's in front of it.
	 * @param database the database
	 * @param jdbcUrl where it is, as a JDBC URL
	 * @return the connection factory
	 */
	public static ConnectionFactory connectionFactory(TestDatabase database, String jdbcUrl) {
		TestDatabase.Endpoint endpoint = database.endpoint();
		return connectionFactory(jdbcUrl, endpoint.username(), endpoint.password());
	}

	/**
	 * Returns a connection factory for the database at a JDBC URL of one host, such as a
	 * member of a {@link GaleraCluster}, through the R2DBC driver of the same database.
	 * @param jdbcUrl where the database is, as a JDBC URL
	 * @param username the user
	 * @param password the password, or {@code null} or empty for none
	 * @return the connection factory, one connection per {@code create()}
	 */
	public static ConnectionFactory connectionFactory(String jdbcUrl, String username, String password) {
		ConnectionFactoryOptions.Builder options = ConnectionFactoryOptions
			.parse("r2dbc:" + jdbcUrl.substring("jdbc:".length()))
			.mutate()
			.option(ConnectionFactoryOptions.USER, username)
			.option(ConnectionFactoryOptions.CONNECT_TIMEOUT, Duration.ofSeconds(5));
		if (password != null && !password.isEmpty()) {
			options.option(ConnectionFactoryOptions.PASSWORD, password);
		}
		return ConnectionFactories.get(options.build());
	}

	/**
	 * Returns a pool of connections to the database {@link TestDatabase} finds, as Spring
	 * Boot puts one in front of an application's connection factory; the caller disposes
	 * of it.
	 * @param database the database
	 * @param maxSize the pool's size
	 * @return the pool
	 */
	public static ConnectionPool pool(TestDatabase database, int maxSize) {
		return pool(connectionFactory(database), maxSize);
	}

	/**
	 * Returns a pool of the factory's connections; the caller disposes of it.
	 * @param connectionFactory the factory
	 * @param maxSize the pool's size
	 * @return the pool
	 */
	public static ConnectionPool pool(ConnectionFactory connectionFactory, int maxSize) {
		return new ConnectionPool(ConnectionPoolConfiguration.builder(connectionFactory)
			.initialSize(0)
			.maxSize(maxSize)
			.maxAcquireTime(Duration.ofSeconds(10))
			.build());
	}

	/**
	 * Returns a connection factory for an in-memory H2 database that lives as long as the
	 * JVM.
	 * @param name the database's name
	 * @return the connection factory
	 */
	public static ConnectionFactory h2(String name) {
		return new H2ConnectionFactory(H2ConnectionConfiguration.builder()
			.inMemory(name)
			.property(H2ConnectionOption.DB_CLOSE_DELAY, "-1")
			.build());
	}

	/**
	 * Returns a JDBC data source on the in-memory H2 database of {@link #h2(String)}.
	 * @param name the database's name
	 * @return the data source
	 */
	public static DataSource h2DataSource(String name) {
		JdbcDataSource dataSource = new JdbcDataSource();
		dataSource.setURL("jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1");
		return dataSource;
	}

}
