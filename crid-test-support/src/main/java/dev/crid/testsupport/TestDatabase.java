package dev.crid.testsupport;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.JdbcDatabaseContainer;
import org.testcontainers.mariadb.MariaDBContainer;
import org.testcontainers.postgresql.PostgreSQLContainer;

/**
 * The real databases that tests run against, found the same way by every module:
 * <ol>
 * <li>the JDBC URL in the environment variable ({@code CRID_TEST_POSTGRES_URL} or
 * {@code CRID_TEST_MARIADB_URL}, with optional {@code _USER} and {@code _PASSWORD} beside it);</li>
 * <li>else the local server at its default address, when it answers;</li>
 * <li>else a Testcontainers container, when a Docker engine is present;</li>
 * <li>else the test is skipped with a message that says what is missing, except under {@code CI=true},
 * where a missing database fails the test.</li>
 * </ol>
 */
public enum TestDatabase {

	/** PostgreSQL: local default {@code 127.0.0.1:5432}, user {@code postgres}, database {@code test}. */
	POSTGRESQL("CRID_TEST_POSTGRES_URL", "jdbc:postgresql://127.0.0.1:5432/test", "postgres", ""),

	/** MariaDB: local default {@code 127.0.0.1:3306}, user {@code root}, empty password, database {@code test}. */
	MARIADB("CRID_TEST_MARIADB_URL", "jdbc:mariadb://127.0.0.1:3306/test", "root", "");

	private static final Map<TestDatabase, Endpoint> resolved = new ConcurrentHashMap<>();

	private final String variable;

	private final String defaultUrl;

	private final String defaultUsername;

	private final String defaultPassword;

	TestDatabase(String variable, String defaultUrl, String defaultUsername, String defaultPassword) {
		this.variable = variable;
		this.defaultUrl = defaultUrl;
		this.defaultUsername = defaultUsername;
		this.defaultPassword = defaultPassword;
	}

	/**
	 * Returns where the database is, finding it on first use; skips the calling test (or fails it under
	 * {@code CI=true}) when there is none.
	 * @return the JDBC URL and credentials
	 */
	public Endpoint endpoint() {
		Endpoint endpoint = resolved.computeIfAbsent(this, TestDatabase::find);
		if (endpoint.missing() != null) {
			if ("true".equalsIgnoreCase(System.getenv("CI"))) {
				Assertions.fail(endpoint.missing() + " (CI=true: a missing database is a failure)");
			}
			Assumptions.abort(endpoint.missing());
		}
		return endpoint;
	}

	/** How long the tests' pools wait for a free connection: short, as crid recommends to applications. */
	public static final java.time.Duration POOL_CONNECTION_TIMEOUT = java.time.Duration.ofSeconds(2);

	/**
	 * Returns a new pooled data source for the database, which waits {@link #POOL_CONNECTION_TIMEOUT} at
	 * most for a free connection; the caller closes it.
	 * @param maximumPoolSize the pool's size
	 * @return the data source
	 */
	public HikariDataSource dataSource(int maximumPoolSize) {
		Endpoint endpoint = endpoint();
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(endpoint.url());
		config.setUsername(endpoint.username());
		config.setPassword(endpoint.password());
		config.setMaximumPoolSize(maximumPoolSize);
		config.setConnectionTimeout(POOL_CONNECTION_TIMEOUT.toMillis());
		config.setPoolName("crid-test-" + name().toLowerCase());
		return new HikariDataSource(config);
	}

	/**
	 * Drops a crid registry's tables, the allocations and the metadata beside them ({@code _meta}), if
	 * they exist: every test drops what it creates.
	 * @param dataSource where the tables are
	 * @param tableName the registry's table name, perhaps schema-qualified
	 */
	public static void dropRegistryTables(DataSource dataSource, String tableName) {
		try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
			statement.execute("DROP TABLE IF EXISTS " + tableName);
			statement.execute("DROP TABLE IF EXISTS " + tableName + "_meta");
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Could not drop the registry tables of " + tableName, ex);
		}
	}

	private Endpoint find() {
		String url = System.getenv(this.variable);
		if (url != null && !url.isBlank()) {
			return new Endpoint(url, environment("_USER", this.defaultUsername),
					environment("_PASSWORD", this.defaultPassword), null);
		}
		Endpoint local = new Endpoint(this.defaultUrl, this.defaultUsername, this.defaultPassword, null);
		if (answers(local)) {
			return local;
		}
		if (dockerAvailable()) {
			JdbcDatabaseContainer<?> container = (this == POSTGRESQL) ? new PostgreSQLContainer("postgres:17-alpine")
					: new MariaDBContainer("mariadb:11");
			container.start();
			return new Endpoint(container.getJdbcUrl(), container.getUsername(), container.getPassword(), null);
		}
		return new Endpoint(null, null, null, name() + " is not available: set " + this.variable + " to a JDBC URL, "
				+ "start the server at " + this.defaultUrl + ", or run a Docker engine for Testcontainers");
	}

	private String environment(String suffix, String fallback) {
		String value = System.getenv(this.variable.replace("_URL", suffix));
		return (value != null) ? value : fallback;
	}

	private static boolean answers(Endpoint endpoint) {
		Properties properties = new Properties();
		properties.setProperty("user", endpoint.username());
		properties.setProperty("password", endpoint.password());
		DriverManager.setLoginTimeout(3);
		try (Connection connection = DriverManager.getConnection(endpoint.url(), properties)) {
			return connection.isValid(2);
		}
		catch (SQLException ex) {
			return false;
		}
	}

	private static boolean dockerAvailable() {
		try {
			return DockerClientFactory.instance().isDockerAvailable();
		}
		catch (RuntimeException | LinkageError ex) {
			return false;
		}
	}

	/**
	 * Where a database answers.
	 *
	 * @param url the JDBC URL
	 * @param username the user
	 * @param password the password
	 * @param missing why there is no database, or {@code null} when there is one
	 */
	public record Endpoint(String url, String username, String password, String missing) {
	}

}
