package dev.crid.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import dev.crid.testsupport.TestDatabase;

/**
 * The in-process H2 database of the tests: one named in-memory database that lives as
 * long as the JVM.
 */
final class H2 {

	private H2() {
	}

	static HikariDataSource dataSource(int poolSize) {
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl("jdbc:h2:mem:crid;DB_CLOSE_DELAY=-1");
		config.setUsername("sa");
		config.setMaximumPoolSize(poolSize);
		config.setConnectionTimeout(TestDatabase.POOL_CONNECTION_TIMEOUT.toMillis());
		config.setPoolName("crid-test-h2");
		return new HikariDataSource(config);
	}

}
