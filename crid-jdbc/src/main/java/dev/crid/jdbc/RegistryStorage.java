package dev.crid.jdbc;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;

import javax.sql.DataSource;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.support.SQLExceptionSubclassTranslator;
import org.springframework.jdbc.support.SQLExceptionTranslator;

import dev.crid.RegistryException;

/**
 * Does the registry's database work: allocations, with retries where a retry is safe, schema checks and
 * creation, dialect detection, and the translation of every failure into a {@link RegistryException}.
 * Each operation runs on a connection of its own through {@link DetachedConnections}.
 */
final class RegistryStorage {

	private static final int MAX_ATTEMPTS = 20;

	private static final long MAX_BACKOFF_MILLIS = 50;

	private static final Log logger = LogFactory.getLog(JdbcTemplateRegistry.class);

	private final String tableName;

	private final Duration queryTimeout;

	private final int queryTimeoutSeconds;

	private final DetachedConnections connections;

	private final SQLExceptionTranslator exceptionTranslator = new SQLExceptionSubclassTranslator();

	private final AtomicBoolean durabilityChecked = new AtomicBoolean();

	private volatile SqlDialect sqlDialect;

	RegistryStorage(DataSource dataSource, String tableName, Duration queryTimeout, JdbcDialect dialect) {
		this.tableName = tableName;
		this.queryTimeout = queryTimeout;
		this.queryTimeoutSeconds = (int) Math.max(1, (queryTimeout.toMillis() + 999) / 1000);
		this.connections = new DetachedConnections(dataSource, queryTimeout);
		this.sqlDialect = (dialect != null) ? SqlDialect.of(dialect) : null;
	}

	long allocate(long timestamp, long blockSize) {
		String task = "reserve " + blockSize + " sequence numbers of timestamp " + timestamp + " in table '"
				+ this.tableName + "'";
		try {
			return this.connections.run(task, (connection) -> allocate(connection, timestamp, blockSize));
		}
		catch (SQLException ex) {
			throw failure(task, ex);
		}
	}

	private long allocate(Connection connection, long timestamp, long blockSize) throws SQLException {
		long deadline = System.nanoTime() + this.queryTimeout.toNanos();
		SqlDialect dialect = dialect(connection);
		checkDurability(dialect, connection);
		return withAutoCommit(connection, dialect.autoCommit(), () -> {
			for (int attempt = 1;; attempt++) {
				try {
					long start = dialect.allocate(connection, this.tableName, timestamp, blockSize,
							this.queryTimeoutSeconds);
					if (!dialect.autoCommit()) {
						connection.commit();
					}
					return start;
				}
				catch (SQLException ex) {
					if (!dialect.autoCommit()) {
						rollback(connection, ex);
					}
					if (attempt >= MAX_ATTEMPTS || !dialect.isRetryable(ex) || System.nanoTime() >= deadline) {
						throw ex;
					}
					backOff(attempt, ex);
				}
			}
		});
	}

	/**
	 * Waits a random moment before a retry, so that transactions that collided (on a new row, or in a
	 * deadlock) do not collide again in lockstep.
	 */
	private static void backOff(int attempt, SQLException failure) throws SQLException {
		try {
			Thread.sleep(ThreadLocalRandom.current().nextLong(1, Math.min(MAX_BACKOFF_MILLIS, 1L << attempt) + 1));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw failure;
		}
	}

	void ensureSchema() {
		String task = "create the crid registry table '" + this.tableName + "'";
		try {
			this.connections.run(task, (connection) -> withAutoCommit(connection, true, () -> {
				SqlDialect dialect = dialect(connection);
				if (tableExists(connection, dialect)) {
					return null;
				}
				try {
					for (String sql : SchemaScript.statements(dialect.schemaScript(), this.tableName)) {
						try (Statement statement = connection.createStatement()) {
							statement.setQueryTimeout(this.queryTimeoutSeconds);
							statement.execute(sql);
						}
					}
				}
				catch (SQLException ex) {
					// Another process may have created it meanwhile.
					if (!tableExists(connection, dialect)) {
						throw ex;
					}
					return null;
				}
				logger.info("Created the crid registry table '" + this.tableName + "' with " + dialect.schemaScript());
				return null;
			}));
		}
		catch (SQLException ex) {
			throw failure(task, ex);
		}
	}

	void verifySchema() {
		String task = "read the crid registry table '" + this.tableName + "'";
		try {
			this.connections.run(task, (connection) -> withAutoCommit(connection, true, () -> {
				dialect(connection);
				probe(connection);
				return null;
			}));
		}
		catch (SQLException ex) {
			throw failure(task, ex);
		}
	}

	SqlDialect dialect() {
		SqlDialect dialect = this.sqlDialect;
		if (dialect != null) {
			return dialect;
		}
		String task = "detect the SQL dialect of the crid registry's database";
		try {
			return this.connections.run(task, this::dialect);
		}
		catch (SQLException ex) {
			throw failure(task, ex);
		}
	}

	/** Returns the dialect if it is known already, else {@code null}; never touches the database. */
	SqlDialect knownDialect() {
		return this.sqlDialect;
	}

	private SqlDialect dialect(Connection connection) throws SQLException {
		SqlDialect dialect = this.sqlDialect;
		if (dialect != null) {
			return dialect;
		}
		DatabaseMetaData metaData = connection.getMetaData();
		JdbcDialect detected = DialectDetector.detect(metaData);
		synchronized (this) {
			if (this.sqlDialect == null) {
				this.sqlDialect = SqlDialect.of(detected);
				String product = metaData.getDatabaseProductName() + " " + metaData.getDatabaseProductVersion();
				logger.info((detected != JdbcDialect.GENERIC)
						? "crid registry table '" + this.tableName + "' uses the " + detected
								+ " dialect, detected from " + product
						: "crid registry table '" + this.tableName + "' is in a database crid has no dialect for ("
								+ product + "), so it uses the GENERIC dialect: UPDATE, then INSERT when the row "
								+ "is new, in a short transaction; set the dialect if the database speaks one of "
								+ "the others");
			}
			return this.sqlDialect;
		}
	}

	private void checkDurability(SqlDialect dialect, Connection connection) {
		if (!this.durabilityChecked.compareAndSet(false, true)) {
			return;
		}
		try {
			String warning = dialect.durabilityWarning(connection);
			if (warning != null) {
				logger.warn("crid registry table '" + this.tableName + "': " + warning);
			}
		}
		catch (SQLException ex) {
			logger.debug("Could not check the durability settings of the crid registry's database", ex);
		}
	}

	private boolean tableExists(Connection connection, SqlDialect dialect) throws SQLException {
		try {
			probe(connection);
			return true;
		}
		catch (SQLException ex) {
			if (dialect.isMissingTable(ex)) {
				return false;
			}
			throw ex;
		}
	}

	private void probe(Connection connection) throws SQLException {
		try (PreparedStatement statement = connection
			.prepareStatement("SELECT ts, next_seq FROM " + this.tableName + " WHERE ts = -1")) {
			statement.setQueryTimeout(this.queryTimeoutSeconds);
			statement.executeQuery().close();
		}
	}

	private RegistryException failure(String task, SQLException ex) {
		SqlDialect dialect = (this.sqlDialect != null) ? this.sqlDialect : SqlDialect.of(JdbcDialect.GENERIC);
		if (dialect.isMissingTable(ex)) {
			return new MissingTableException(this.tableName, dialect.schemaScript(), ex);
		}
		DataAccessException translated = this.exceptionTranslator.translate(task, null, ex);
		Throwable cause = (translated != null) ? translated : ex;
		return new RegistryException("Could not " + task + " (query timeout " + this.queryTimeout + "): "
				+ ex.getMessage(), cause);
	}

	private static <T> T withAutoCommit(Connection connection, boolean autoCommit, ConnectionWork<T> work)
			throws SQLException {
		boolean previous = connection.getAutoCommit();
		if (previous != autoCommit) {
			connection.setAutoCommit(autoCommit);
		}
		try {
			return work.run();
		}
		finally {
			if (previous != autoCommit) {
				try {
					connection.setAutoCommit(previous);
				}
				catch (SQLException ex) {
					// A broken connection; the pool will discard it, and the work's own outcome stands.
				}
			}
		}
	}

	private static void rollback(Connection connection, SQLException failure) {
		try {
			connection.rollback();
		}
		catch (SQLException ex) {
			failure.addSuppressed(ex);
		}
	}

	/**
	 * Work on a connection prepared by the caller.
	 * @param <T> the result type
	 */
	@FunctionalInterface
	private interface ConnectionWork<T> {

		T run() throws SQLException;

	}

}
