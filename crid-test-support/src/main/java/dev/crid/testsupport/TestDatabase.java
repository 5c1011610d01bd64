package dev.crid.testsupport;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

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
 * {@code CRID_TEST_MARIADB_URL}, with optional {@code _USER} and {@code _PASSWORD} beside
 * it), when it answers;</li>
 * <li>else, when no URL is set, the local server at its default address, when it
 * answers;</li>
 * <li>else a Testcontainers container, when a Docker engine is present;</li>
 * <li>else the test is skipped with a message that says what is missing, except under
 * {@code CI=true}, where a missing database fails the test.</li>
 * </ol>
 * {@link #MARIADB_THROUGH_MYSQL_DRIVER} is the same MariaDB reached through MySQL
 * Connector/J: its own variable ({@code CRID_TEST_MARIADB_MYSQL_DRIVER_URL}) when set,
 * else whatever {@link #MARIADB} found, with the URL's scheme changed to
 * {@code jdbc:mysql:}. A database answers when a connection to it opens and is valid
 * within {@value #LOGIN_TIMEOUT_SECONDS} s, in one of {@value #ATTEMPTS} attempts a
 * second apart, so a slow start is not taken for a missing database. A database found is
 * kept for the JVM; a missing one is looked for again after {@value #MISSING_FOR_SECONDS}
 * s. A test skipped from a {@code @BeforeAll} method shows in the reports as skipped,
 * test by test, through {@link SkippedClassReporting}.
 */
// Each constant remembers, for the JVM, where its database was found: mutable on purpose.
@SuppressWarnings("ImmutableEnumChecker")
public enum TestDatabase {

	/**
	 * PostgreSQL: local default {@code 127.0.0.1:5432}, user {@code postgres}, database
	 * {@code test}.
	 */
	POSTGRESQL("CRID_TEST_POSTGRES_URL", "jdbc:postgresql://127.0.0.1:5432/test", "postgres", ""),

	/**
	 * MariaDB: local default {@code 127.0.0.1:3306}, user {@code root}, empty password,
	 * database {@code test}.
	 */
	MARIADB("CRID_TEST_MARIADB_URL", "jdbc:mariadb://127.0.0.1:3306/test", "root", ""),

	/**
	 * The MariaDB of {@link #MARIADB} through MySQL Connector/J, the driver many
	 * applications use for MySQL and MariaDB alike; it reports a MariaDB server as
	 * {@code MySQL} and runs statements by its own rules.
	 */
	MARIADB_THROUGH_MYSQL_DRIVER("CRID_TEST_MARIADB_MYSQL_DRIVER_URL", "jdbc:mysql://127.0.0.1:3306/test", "root", "");

	private static final String MARIADB_SCHEME = "jdbc:mariadb:";

	private static final String MYSQL_SCHEME = "jdbc:mysql:";

	private static final int ATTEMPTS = 3;

	private static final int LOGIN_TIMEOUT_SECONDS = 5;

	private static final int MISSING_FOR_SECONDS = 30;

	private final String variable;

	private final String defaultUrl;

	private final String defaultUsername;

	private final String defaultPassword;

	private final Object lock = new Object();

	/** The last answer, and until when ({@link System#nanoTime()}) it holds. */
	private Endpoint found;

	private long foundUntil;

	TestDatabase(String variable, String defaultUrl, String defaultUsername, String defaultPassword) {
		this.variable = variable;
		this.defaultUrl = defaultUrl;
		this.defaultUsername = defaultUsername;
		this.defaultPassword = defaultPassword;
	}

	/**
	 * Returns where the database is, finding it on first use; skips the calling test (or
	 * fails it under {@code CI=true}) when there is none.
	 * @return the JDBC URL and credentials
	 */
	public Endpoint endpoint() {
		Endpoint endpoint = lookUp();
		if (endpoint.missing() != null) {
			if ("true".equalsIgnoreCase(System.getenv("CI"))) {
				Assertions.fail(endpoint.missing() + " (CI=true: a missing database is a failure)");
			}
			Assumptions.abort(endpoint.missing());
		}
		return endpoint;
	}

	/**
	 * How long the tests' pools wait for a free connection: short, as crid recommends to
	 * applications.
	 */
	public static final Duration POOL_CONNECTION_TIMEOUT = Duration.ofSeconds(2);

	/**
	 * Returns a new pooled data source for the database, which waits
	 * {@link #POOL_CONNECTION_TIMEOUT} at most for a free connection; the caller closes
	 * it.
	 * @param maximumPoolSize the pool's size
	 * @return the data source
	 */
	public HikariDataSource dataSource(int maximumPoolSize) {
		Endpoint endpoint = endpoint();
		return dataSource(maximumPoolSize, endpoint.username(), endpoint.password());
	}

	/**
	 * Returns a new pooled data source for the database as another user, such as one a
	 * test created with fewer rights, which waits {@link #POOL_CONNECTION_TIMEOUT} at
	 * most for a free connection; the caller closes it.
	 * @param maximumPoolSize the pool's size
	 * @param username the user
	 * @param password the user's password
	 * @return the data source
	 */
	public HikariDataSource dataSource(int maximumPoolSize, String username, String password) {
		Endpoint endpoint = endpoint();
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(endpoint.url());
		config.setUsername(username);
		config.setPassword(password);
		config.setMaximumPoolSize(maximumPoolSize);
		config.setConnectionTimeout(POOL_CONNECTION_TIMEOUT.toMillis());
		config.setPoolName("crid-test-" + name().toLowerCase(Locale.ROOT));
		return new HikariDataSource(config);
	}

	/**
	 * Drops a crid registry's tables, the allocation table and the metadata beside it
	 * ({@code _meta}), if they exist: every test drops what it creates.
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

	private Endpoint lookUp() {
		synchronized (this.lock) {
			if (this.found == null || System.nanoTime() - this.foundUntil > 0) {
				this.found = find();
				this.foundUntil = (this.found.missing() == null) ? Long.MAX_VALUE
						: System.nanoTime() + TimeUnit.SECONDS.toNanos(MISSING_FOR_SECONDS);
			}
			return this.found;
		}
	}

	private Endpoint find() {
		String url = System.getenv(this.variable);
		if (this == MARIADB_THROUGH_MYSQL_DRIVER && (url == null || url.isBlank())) {
			return throughMySqlDriver(MARIADB.lookUp());
		}
		if (url != null && !url.isBlank()) {
			Endpoint configured = new Endpoint(url, environment("_USER", this.defaultUsername),
					environment("_PASSWORD", this.defaultPassword), null);
			String failure = failureToAnswer(configured);
			return (failure == null) ? configured : new Endpoint(null, null, null, name() + " at " + this.variable + "="
					+ url + " did not answer in " + ATTEMPTS + " attempts: " + failure);
		}
		Endpoint local = new Endpoint(this.defaultUrl, this.defaultUsername, this.defaultPassword, null);
		String failure = failureToAnswer(local);
		if (failure == null) {
			return local;
		}
		if (dockerAvailable()) {
			JdbcDatabaseContainer<?> container = (this == POSTGRESQL) ? new PostgreSQLContainer("postgres:17-alpine")
					: new MariaDBContainer("mariadb:11");
			container.start();
			return new Endpoint(container.getJdbcUrl(), container.getUsername(), container.getPassword(), null);
		}
		return new Endpoint(null, null, null,
				name() + " is not available (" + this.defaultUrl + " did not answer in " + ATTEMPTS + " attempts: "
						+ failure + "): set " + this.variable + " to a JDBC URL, start the server " + "at "
						+ this.defaultUrl + ", or run a Docker engine for Testcontainers");
	}

	/**
	 * The MariaDB that was found, through MySQL Connector/J, once it answers that way
	 * too.
	 */
	private Endpoint throughMySqlDriver(Endpoint mariaDb) {
		if (mariaDb.missing() != null) {
			return mariaDb;
		}
		if (!mariaDb.url().startsWith(MARIADB_SCHEME)) {
			return new Endpoint(null, null, null, name() + " needs a " + MARIADB_SCHEME + " URL to derive a "
					+ MYSQL_SCHEME + " one from, but MARIADB is at " + mariaDb.url() + ": set " + this.variable);
		}
		Endpoint derived = new Endpoint(MYSQL_SCHEME + mariaDb.url().substring(MARIADB_SCHEME.length()),
				mariaDb.username(), mariaDb.password(), null);
		String failure = failureToAnswer(derived);
		return (failure == null) ? derived : new Endpoint(null, null, null, name() + " at " + derived.url()
				+ " did not answer through MySQL Connector/J in " + ATTEMPTS + " attempts: " + failure);
	}

	private String environment(String suffix, String fallback) {
		String value = System.getenv(this.variable.replace("_URL", suffix));
		return (value != null) ? value : fallback;
	}

	/**
	 * Tries to connect a few times, a second apart; returns {@code null} once the
	 * database answers, else why it did not the last time.
	 */
	private String failureToAnswer(Endpoint endpoint) {
		String failure = null;
		for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
			try (Connection connection = DriverManager.getConnection(endpoint.url(), probeProperties(endpoint))) {
				if (connection.isValid(LOGIN_TIMEOUT_SECONDS)) {
					return null;
				}
				failure = "the connection was not valid";
			}
			catch (SQLException ex) {
				failure = ex.toString();
			}
			if (attempt < ATTEMPTS) {
				try {
					TimeUnit.SECONDS.sleep(1);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					return "interrupted while waiting to try again";
				}
			}
		}
		return failure;
	}

	/**
	 * The credentials, and timeouts that bound one attempt, set on this connection alone:
	 * the JVM-wide {@link DriverManager#setLoginTimeout(int)} would also apply to every
	 * pool the tests open later.
	 */
	private Properties probeProperties(Endpoint endpoint) {
		Properties properties = new Properties();
		properties.setProperty("user", endpoint.username());
		properties.setProperty("password", endpoint.password());
		String seconds = Integer.toString(LOGIN_TIMEOUT_SECONDS);
		String millis = Long.toString(TimeUnit.SECONDS.toMillis(LOGIN_TIMEOUT_SECONDS));
		switch (this) {
			case POSTGRESQL -> {
				properties.setProperty("connectTimeout", seconds);
				properties.setProperty("loginTimeout", seconds);
				properties.setProperty("socketTimeout", seconds);
			}
			case MARIADB, MARIADB_THROUGH_MYSQL_DRIVER -> {
				properties.setProperty("connectTimeout", millis);
				properties.setProperty("socketTimeout", millis);
			}
		}
		return properties;
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
