package dev.crid.jdbc;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Locale;

import javax.sql.DataSource;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.dao.DataAccessException;

import dev.crid.RegistryException;
import dev.crid.sql.Failures;
import dev.crid.sql.RefusalException;
import dev.crid.sql.RegistryStore;
import dev.crid.sql.RegistryTables;
import dev.crid.sql.SqlDialect;
import dev.crid.sql.SqlSessions;

/**
 * Where the JDBC registry runs the shared SQL: each operation on a connection of its own
 * from {@link RegistryConnections}, on the calling thread, in auto-commit mode, with the
 * statements of the dialect detected from the first connection (or set), and every
 * failure translated into a {@link RegistryException} that names its root cause.
 */
final class JdbcSessions implements SqlSessions<SQLException> {

	private static final Log logger = LogFactory.getLog(JdbcTemplateRegistry.class);

	private final RegistryTables tables;

	private final Duration queryTimeout;

	private final int queryTimeoutSeconds;

	private final RegistryConnections connections;

	/** The dialect set on the builder, or {@code null} to detect it. */
	private final @Nullable JdbcDialect forcedDialect;

	/**
	 * The database's dialect and the statements the data source's driver runs, known from
	 * the first connection on.
	 */
	private volatile @Nullable Dialects dialects;

	JdbcSessions(DataSource dataSource, RegistryTables tables, Duration queryTimeout, @Nullable JdbcDialect dialect) {
		this.tables = tables;
		this.queryTimeout = queryTimeout;
		this.queryTimeoutSeconds = (int) Math.max(1, (queryTimeout.toMillis() + 999) / 1000);
		this.connections = new RegistryConnections(dataSource, queryTimeout);
		this.forcedDialect = dialect;
	}

	@Override
	public <T> @Nullable T run(String task, Work<T, SQLException> work) {
		try {
			return this.connections.run((connection) -> {
				long deadline = System.nanoTime() + this.queryTimeout.toNanos();
				return withAutoCommit(connection, () -> work.run(new JdbcSession(connection,
						dialects(connection).statements(), this.queryTimeoutSeconds, deadline)));
			});
		}
		catch (SQLException ex) {
			throw failure(task, ex);
		}
		catch (RefusalException ex) {
			throw new RegistryException(ex.getMessage(), null, false);
		}
		catch (RegistryException ex) {
			throw ex;
		}
		catch (RuntimeException ex) {
			throw new RegistryException("Could not " + task + ": " + ex.getMessage() + Failures.rootCause(ex), ex);
		}
	}

	/**
	 * Returns the database's dialect: the one set, else the one detected, connecting to
	 * detect it if need be.
	 */
	JdbcDialect dialect() {
		JdbcDialect known = knownDialect();
		if (known != null) {
			return known;
		}
		run("detect the SQL dialect of the crid registry's database", (session) -> null);
		return java.util.Objects.requireNonNull(knownDialect());
	}

	/**
	 * Returns the database's dialect if it is set or known already, else {@code null};
	 * never touches the database.
	 */
	@Nullable JdbcDialect knownDialect() {
		Dialects known = this.dialects;
		return (known != null) ? known.database() : this.forcedDialect;
	}

	private Dialects dialects(Connection connection) throws SQLException {
		Dialects known = this.dialects;
		if (known != null) {
			return known;
		}
		DatabaseMetaData metaData = connection.getMetaData();
		JdbcDialect database = (this.forcedDialect != null) ? this.forcedDialect : DialectDetector.detect(metaData);
		Dialects resolved = new Dialects(database, DialectDetector.statements(database, metaData));
		synchronized (this) {
			if (this.dialects == null) {
				this.dialects = resolved;
				logger.info(dialectChoice(resolved, metaData));
			}
			return java.util.Objects.requireNonNull(this.dialects);
		}
	}

	private String dialectChoice(Dialects dialects, DatabaseMetaData databaseMetaData) throws SQLException {
		String product = databaseMetaData.getDatabaseProductName() + " " + databaseMetaData.getDatabaseProductVersion()
				+ " through " + databaseMetaData.getDriverName() + " " + databaseMetaData.getDriverVersion();
		String table = this.tables.allocations();
		JdbcDialect database = dialects.database();
		String choice;
		if (this.forcedDialect != null) {
			choice = "crid registry table '" + table + "' uses the " + database + " dialect, as set, on " + product;
		}
		else if (database != JdbcDialect.GENERIC) {
			choice = "crid registry table '" + table + "' uses the " + database + " dialect, detected from " + product;
		}
		else {
			choice = "crid registry table '" + table + "' is in a database crid has no dialect for (" + product
					+ "), so it uses the GENERIC dialect: UPDATE, then INSERT when the row is new, in a short "
					+ "transaction; set the dialect if the database speaks one of the others";
		}
		String statements = DialectDetector.statementChoice(database, dialects.statements());
		return (statements != null) ? choice + "; " + statements : choice;
	}

	private RegistryException failure(String task, SQLException ex) {
		if (JdbcSession.isMissingTableFailure(ex)) {
			JdbcDialect database = knownDialect();
			SqlDialect scripts = ((database != null) ? database : JdbcDialect.GENERIC).statements();
			return new MissingTableException(missingTableName(ex), scripts.schemaScript(), ex);
		}
		DataAccessException translated = RegistryFailures.translate(task, ex);
		boolean retryable = RegistryFailures.isRetryable(translated);
		return new RegistryException(
				"Could not " + task + " (query timeout " + this.queryTimeout + "): " + ex.getMessage()
						+ Failures.rootCause(ex) + (retryable ? "" : Failures.LASTING),
				(translated != null) ? translated : ex, retryable);
	}

	/**
	 * Names the registry table that is missing: the allocation table when both are, as a
	 * second look on a fresh connection tells, or else the one the database's message
	 * names.
	 */
	private String missingTableName(SQLException failure) {
		try {
			String missing = this.connections.run((connection) -> RegistryStore.missingTable(
					new JdbcSession(connection, dialects(connection).statements(), this.queryTimeoutSeconds, 0),
					this.tables));
			if (missing != null) {
				return missing;
			}
		}
		catch (SQLException | RuntimeException ex) {
			failure.addSuppressed(ex);
		}
		String message = String.valueOf(failure.getMessage()).toLowerCase(Locale.ROOT);
		return message.contains(this.tables.meta().toLowerCase(Locale.ROOT)) ? this.tables.meta()
				: this.tables.allocations();
	}

	/**
	 * Runs the work in auto-commit mode, and restores the connection's mode afterwards: a
	 * pool may hand out connections that are not.
	 */
	private static <T> @Nullable T withAutoCommit(Connection connection, ConnectionWork<T> work) throws SQLException {
		boolean previous = connection.getAutoCommit();
		if (!previous) {
			connection.setAutoCommit(true);
		}
		try {
			return work.run();
		}
		finally {
			if (!previous) {
				try {
					connection.setAutoCommit(false);
				}
				catch (SQLException ex) {
					// A broken connection; the pool will discard it, and the work's own
					// outcome stands.
				}
			}
		}
	}

	/**
	 * Work on a connection prepared by the caller.
	 *
	 * @param <T> the result type
	 */
	@FunctionalInterface
	private interface ConnectionWork<T> {

		@Nullable T run() throws SQLException;

	}

	/**
	 * The database's dialect, and the statements the driver runs (another's, where the
	 * driver refuses the dialect's own).
	 *
	 * @param database the database's dialect
	 * @param statements the statements run
	 */
	private record Dialects(JdbcDialect database, SqlDialect statements) {
	}

}
