package dev.crid.benchmarks;

import java.util.Map;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

/**
 * The databases the benchmarks run against. Each is found, in this order, through the
 * system properties {@code crid.benchmarks.<name>.url}, {@code .username} and
 * {@code .password}; the environment variables the tests use
 * ({@code CRID_TEST_POSTGRES_URL} or {@code CRID_TEST_MARIADB_URL}, with {@code _USER}
 * and {@code _PASSWORD}); or the local server.
 */
public enum BenchmarkDatabase {

	/**
	 * PostgreSQL, by default at 127.0.0.1:5432, database {@code test}, user
	 * {@code postgres}.
	 */
	POSTGRESQL("postgresql", "CRID_TEST_POSTGRES", "jdbc:postgresql://127.0.0.1:5432/test", "postgres"),

	/**
	 * MariaDB, by default at 127.0.0.1:3306, database {@code test}, user {@code root}.
	 */
	MARIADB("mariadb", "CRID_TEST_MARIADB", "jdbc:mariadb://127.0.0.1:3306/test", "root");

	private final String name;

	private final String environmentPrefix;

	private final String defaultUrl;

	private final String defaultUsername;

	BenchmarkDatabase(String name, String environmentPrefix, String defaultUrl, String defaultUsername) {
		this.name = name;
		this.environmentPrefix = environmentPrefix;
		this.defaultUrl = defaultUrl;
		this.defaultUsername = defaultUsername;
	}

	/**
	 * The JDBC URL.
	 * @return the URL
	 */
	public String url() {
		return setting("url", "_URL", this.defaultUrl);
	}

	/**
	 * The user name.
	 * @return the user name
	 */
	public String username() {
		return setting("username", "_USER", this.defaultUsername);
	}

	/**
	 * The password.
	 * @return the password, empty for none
	 */
	public String password() {
		return setting("password", "_PASSWORD", "");
	}

	/**
	 * Opens a connection pool; the caller closes it.
	 * @param poolSize the pool's connections
	 * @return the pool
	 */
	public HikariDataSource dataSource(int poolSize) {
		return dataSource(poolSize, Map.of());
	}

	/**
	 * Opens a connection pool whose JDBC driver gets the given properties; the caller
	 * closes it.
	 */
	HikariDataSource dataSource(int poolSize, Map<String, String> driverProperties) {
		HikariConfig config = new HikariConfig();
		driverProperties.forEach(config::addDataSourceProperty);
		config.setJdbcUrl(url());
		config.setUsername(username());
		config.setPassword(password());
		config.setMaximumPoolSize(poolSize);
		config.setMinimumIdle(poolSize);
		config.setPoolName("crid-benchmarks-" + this.name);
		return new HikariDataSource(config);
	}

	/**
	 * The name that the system properties of this database carry
	 * ({@code crid.benchmarks.<name>.url}).
	 * @return {@code postgresql} or {@code mariadb}
	 */
	public String propertyName() {
		return this.name;
	}

	private String setting(String property, String variableSuffix, String fallback) {
		String value = System.getProperty("crid.benchmarks." + this.name + "." + property);
		if (value == null) {
			value = System.getenv(this.environmentPrefix + variableSuffix);
		}
		return (value != null) ? value : fallback;
	}

}
