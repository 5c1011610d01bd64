package dev.crid.jdbc;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;

import javax.sql.DataSource;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.dao.DataAccessException;

import dev.crid.CridLayout;
import dev.crid.LayoutMismatchException;
import dev.crid.Registry;
import dev.crid.RegistryException;

/**
 * Does the registry's database work: reservations, with retries where a retry is safe; the layout check
 * and evictions on the metadata table; schema checks and creation; dialect detection; and the translation
 * of every failure into a {@link RegistryException} that names its root cause. Each operation runs on the
 * calling thread, on a connection of its own from {@link RegistryConnections}.
 */
final class RegistryStorage {

	private static final int MAX_ATTEMPTS = 20;

	private static final long MAX_BACKOFF_MILLIS = 50;

	private static final Log logger = LogFactory.getLog(JdbcTemplateRegistry.class);

	private final RegistryTables tables;

	private final Duration queryTimeout;

	private final int queryTimeoutSeconds;

	private final RegistryConnections connections;

	private final RegistryMetadata metadata;

	private final AtomicBoolean durabilityChecked = new AtomicBoolean();

	/** The dialect set on the builder, or {@code null} to detect it. */
	private final JdbcDialect forcedDialect;

	/** The dialect's SQL for the data source's driver, known from the first connection on. */
	private volatile SqlDialect sqlDialect;

	/** Whether the metadata row is known to exist. */
	private volatile boolean metadataReady;

	/** Whether the registry may add a missing metadata table beside an existing allocation table. */
	private final boolean createMetadataTable;

	/**
	 * Whether the registry runs without the metadata table, which is missing and could not or may not be
	 * added: no layout record, no eviction watermark, no evictions.
	 */
	private volatile boolean withoutMetadata;

	/** The layout the registry table is known to serve, once checked. */
	private volatile CridLayout checkedLayout;

	RegistryStorage(DataSource dataSource, String tableName, Duration queryTimeout, JdbcDialect dialect,
			boolean createMetadataTable) {
		this.createMetadataTable = createMetadataTable;
		this.tables = new RegistryTables(tableName);
		this.queryTimeout = queryTimeout;
		this.queryTimeoutSeconds = (int) Math.max(1, (queryTimeout.toMillis() + 999) / 1000);
		this.connections = new RegistryConnections(dataSource, queryTimeout);
		this.metadata = new RegistryMetadata(this.tables, this.queryTimeoutSeconds);
		this.forcedDialect = dialect;
	}

	Registry.Reservation reserve(long timestamp, long blockSize) {
		String task = "reserve " + blockSize + " sequence numbers of timestamp " + timestamp + " in table '"
				+ this.tables.allocations() + "'";
		return run(task, (connection) -> {
			SqlDialect dialect = dialect(connection);
			boolean guarded = prepareMetadata(connection, dialect);
			checkDurability(dialect, connection);
			Registry.Reservation reservation = allocate(connection, dialect, timestamp, blockSize, guarded);
			if (reservation == null) {
				// The row may have been deleted by hand since: add it again, and try once more.
				this.metadataReady = false;
				guarded = prepareMetadata(connection, dialect);
				reservation = allocate(connection, dialect, timestamp, blockSize, guarded);
			}
			if (reservation == null) {
				throw evicted(connection, timestamp);
			}
			return reservation;
		});
	}

	private Registry.Reservation allocate(Connection connection, SqlDialect dialect, long timestamp, long blockSize,
			boolean guarded) throws SQLException {
		long deadline = System.nanoTime() + this.queryTimeout.toNanos();
		return withAutoCommit(connection, dialect.autoCommit(), () -> {
			for (int attempt = 1;; attempt++) {
				try {
					Registry.Reservation reservation = dialect.allocate(connection, this.tables, timestamp, blockSize,
							guarded, this.queryTimeoutSeconds);
					if (!dialect.autoCommit()) {
						connection.commit();
					}
					return reservation;
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

	private RegistryException evicted(Connection connection, long timestamp) throws SQLException {
		Long watermark = this.metadata.watermark(connection);
		return new RegistryException("Timestamp " + timestamp + " is older than the seconds the crid registry table '"
				+ this.tables.allocations() + "' still holds: every second before " + watermark + " was evicted, and "
				+ "the registry refuses to hand out their numbers again. The node's clock is behind the others' by "
				+ "more than the table's retention", null, false);
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

	/**
	 * Whether the registry runs without the metadata table (see {@link #prepareMetadata}): then nothing is
	 * evicted, as evictions need the watermark kept there.
	 */
	boolean withoutMetadata() {
		return this.withoutMetadata;
	}

	/** The layout the table was found to serve, or {@code null} before a check. */
	CridLayout checkedLayout() {
		return this.checkedLayout;
	}

	void checkLayout(CridLayout layout) {
		if (layout.equals(this.checkedLayout)) {
			return;
		}
		CridLayout recorded = run("check the layout of the crid registry table '" + this.tables.allocations() + "'",
				(connection) -> {
					if (!prepareMetadata(connection, dialect(connection))) {
						return null;
					}
					return withAutoCommit(connection, true, () -> this.metadata.claimLayout(connection, layout));
				});
		if (recorded != null && !recorded.equals(layout)) {
			throw new LayoutMismatchException("table '" + this.tables.allocations() + "'", recorded, layout);
		}
		this.checkedLayout = layout;
	}

	/**
	 * Raises the eviction watermark to {@code before}, then deletes the rows below it for at most
	 * {@code budgetNanos}.
	 */
	RegistryMetadata.Deleted evict(long before, long budgetNanos) {
		long deadline = System.nanoTime() + budgetNanos;
		return run("evict the seconds before " + before + " from the crid registry table '" + this.tables.allocations()
				+ "'", (connection) -> {
					if (!prepareMetadata(connection, dialect(connection))) {
						throw new RegistryException("Cannot evict from the crid registry table '" + this.tables.allocations()
								+ "': it has no metadata table '" + this.tables.meta() + "' to keep the eviction watermark "
								+ "in, without which a node whose clock lags behind could reserve an evicted second "
								+ "again; add it with JdbcTemplateRegistry.ensureSchema()", null, false);
					}
					return withAutoCommit(connection, true, () -> {
						this.metadata.raiseWatermark(connection, before);
						return this.metadata.deleteBefore(connection, before, deadline);
					});
				});
	}

	/**
	 * Makes sure the metadata row exists, adding the metadata table first where it is missing beside an
	 * existing allocation table (one the Go crid made) and the registry may add it; returns {@code false}
	 * when the registry runs without it from now on, after one warning.
	 * @throws SQLException when the allocation table is missing too, or the database fails
	 */
	private boolean prepareMetadata(Connection connection, SqlDialect dialect) throws SQLException {
		if (this.withoutMetadata) {
			return false;
		}
		if (this.metadataReady) {
			return true;
		}
		return withAutoCommit(connection, true, () -> {
			if (!tableExists(connection, dialect, this.tables.meta()) && !addMetadataTable(connection, dialect)) {
				return false;
			}
			this.metadata.ensureRow(connection);
			this.metadataReady = true;
			return true;
		});
	}

	/**
	 * Adds the metadata table beside the allocation table, if allowed; returns whether it exists now. When
	 * not, the registry runs without it, and says once what that costs.
	 */
	private boolean addMetadataTable(Connection connection, SqlDialect dialect) throws SQLException {
		// Only the metadata table is added here: a missing allocation table is the application's to create.
		probe(connection, this.tables.allocations());
		SQLException refusal = null;
		if (this.createMetadataTable) {
			try {
				createTables(connection, dialect,
						SchemaScript.metadataStatements(dialect.schemaScript(), this.tables.allocations()));
				logger.info("Added the crid metadata table '" + this.tables.meta() + "' beside the registry table '"
						+ this.tables.allocations() + "', which had none (as a table made by the Go crid has none)");
				return true;
			}
			catch (SQLException ex) {
				refusal = ex;
			}
		}
		synchronized (this) {
			if (!this.withoutMetadata) {
				this.withoutMetadata = true;
				logger.warn(withoutMetadataWarning(dialect, refusal));
			}
		}
		return false;
	}

	private String withoutMetadataWarning(SqlDialect dialect, SQLException refusal) {
		return "crid registry table '" + this.tables.allocations() + "' has no metadata table '" + this.tables.meta()
				+ "' beside it (a table made by the Go crid has none), and "
				+ ((refusal != null) ? "the registry could not add it (" + refusal.getMessage() + ")"
						: "the registry was told not to add it")
				+ ": it runs without the layout record and the eviction watermark kept there, so a node with "
				+ "another epoch or bit split is not refused (its IDs could collide with the others') and no rows "
				+ "are evicted (the table keeps a row per second used). Add the table with "
				+ "JdbcTemplateRegistry.ensureSchema() or the CREATE TABLE of '" + this.tables.meta() + "' in "
				+ dialect.schemaScript() + ", then restart the nodes";
	}

	void ensureSchema() {
		run("create the crid registry tables '" + this.tables.allocations() + "' and '" + this.tables.meta() + "'",
				(connection) -> withAutoCommit(connection, true, () -> {
					SqlDialect dialect = dialect(connection);
					String missing = missingTable(connection, dialect);
					if (missing == null) {
						return null;
					}
					createTables(connection, dialect,
							SchemaScript.statements(dialect.schemaScript(), this.tables.allocations()));
					logger.info("Created the crid registry " + (missing.equals(this.tables.meta())
							? "metadata table '" + this.tables.meta() + "' beside the table '" + this.tables.allocations() + "'"
							: "tables '" + this.tables.allocations() + "' and '" + this.tables.meta() + "'") + " with "
							+ dialect.schemaScript());
					return null;
				}));
	}

	/**
	 * Runs the DDL statements, and makes sure that both tables exist afterwards.
	 * @throws SQLException the first failure of a statement when a table is still missing
	 */
	private void createTables(Connection connection, SqlDialect dialect, List<String> statements) throws SQLException {
		SQLException firstFailure = null;
		for (String sql : statements) {
			try (Statement statement = connection.createStatement()) {
				statement.setQueryTimeout(this.queryTimeoutSeconds);
				statement.execute(sql);
			}
			catch (SQLException ex) {
				// The table may exist already (a script without IF NOT EXISTS), or another process created
				// it meanwhile: what counts is that both exist at the end.
				firstFailure = (firstFailure != null) ? firstFailure : ex;
			}
		}
		if (missingTable(connection, dialect) != null) {
			throw (firstFailure != null) ? firstFailure
					: new SQLException("The schema script " + dialect.schemaScript() + " created no tables");
		}
	}

	/**
	 * Checks that the allocation table exists and can be read, and tells whether the metadata table does.
	 * @return whether the metadata table exists
	 */
	boolean verifySchema() {
		return run("read the crid registry tables '" + this.tables.allocations() + "' and '" + this.tables.meta() + "'",
				(connection) -> withAutoCommit(connection, true, () -> {
					SqlDialect dialect = dialect(connection);
					probe(connection, this.tables.allocations());
					return tableExists(connection, dialect, this.tables.meta());
				}));
	}

	/** Returns the dialect: the one set, else the one detected, connecting to detect it if need be. */
	JdbcDialect dialect() {
		JdbcDialect known = knownDialect();
		if (known != null) {
			return known;
		}
		return run("detect the SQL dialect of the crid registry's database", this::dialect).dialect();
	}

	/** Returns the dialect if it is set or known already, else {@code null}; never touches the database. */
	JdbcDialect knownDialect() {
		if (this.forcedDialect != null) {
			return this.forcedDialect;
		}
		SqlDialect dialect = this.sqlDialect;
		return (dialect != null) ? dialect.dialect() : null;
	}

	private SqlDialect dialect(Connection connection) throws SQLException {
		SqlDialect dialect = this.sqlDialect;
		if (dialect != null) {
			return dialect;
		}
		DatabaseMetaData metaData = connection.getMetaData();
		JdbcDialect chosen = (this.forcedDialect != null) ? this.forcedDialect : DialectDetector.detect(metaData);
		SqlDialect resolved = SqlDialect.of(chosen, metaData);
		synchronized (this) {
			if (this.sqlDialect == null) {
				this.sqlDialect = resolved;
				logger.info(dialectChoice(resolved, metaData));
			}
			return this.sqlDialect;
		}
	}

	private String dialectChoice(SqlDialect dialect, DatabaseMetaData metaData) throws SQLException {
		String product = metaData.getDatabaseProductName() + " " + metaData.getDatabaseProductVersion() + " through "
				+ metaData.getDriverName() + " " + metaData.getDriverVersion();
		String table = this.tables.allocations();
		String choice;
		if (this.forcedDialect != null) {
			choice = "crid registry table '" + table + "' uses the " + dialect.dialect() + " dialect, as set, on " + product;
		}
		else if (dialect.dialect() != JdbcDialect.GENERIC) {
			choice = "crid registry table '" + table + "' uses the " + dialect.dialect() + " dialect, detected from "
					+ product;
		}
		else {
			choice = "crid registry table '" + table + "' is in a database crid has no dialect for (" + product
					+ "), so it uses the GENERIC dialect: UPDATE, then INSERT when the row is new, in a short "
					+ "transaction; set the dialect if the database speaks one of the others";
		}
		String statements = dialect.statementChoice();
		return (statements != null) ? choice + "; " + statements : choice;
	}

	private void checkDurability(SqlDialect dialect, Connection connection) {
		if (!this.durabilityChecked.compareAndSet(false, true)) {
			return;
		}
		try {
			String warning = dialect.durabilityWarning(connection);
			if (warning != null) {
				logger.warn("crid registry table '" + this.tables.allocations() + "': " + warning);
			}
		}
		catch (SQLException ex) {
			logger.debug("Could not check the durability settings of the crid registry's database", ex);
		}
	}

	/** Returns the name of a registry table that does not exist, or {@code null} when both do. */
	private String missingTable(Connection connection, SqlDialect dialect) throws SQLException {
		for (String table : List.of(this.tables.allocations(), this.tables.meta())) {
			if (!tableExists(connection, dialect, table)) {
				return table;
			}
		}
		return null;
	}

	/** Whether the table exists; throws when it cannot be read for another reason. */
	private boolean tableExists(Connection connection, SqlDialect dialect, String table) throws SQLException {
		try {
			probe(connection, table);
			return true;
		}
		catch (SQLException ex) {
			if (dialect.isMissingTable(ex)) {
				return false;
			}
			throw ex;
		}
	}

	private void probe(Connection connection, String table) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement("SELECT * FROM " + table + " WHERE 1 = 0")) {
			statement.setQueryTimeout(this.queryTimeoutSeconds);
			statement.executeQuery().close();
		}
	}

	/** Runs database work on a connection of its own, turning every failure into a RegistryException. */
	private <T> T run(String task, RegistryConnections.Work<T> work) {
		try {
			return this.connections.run(work);
		}
		catch (SQLException ex) {
			throw failure(task, ex);
		}
	}

	private RegistryException failure(String task, SQLException ex) {
		SqlDialect dialect = (this.sqlDialect != null) ? this.sqlDialect
				: SqlDialect.of((this.forcedDialect != null) ? this.forcedDialect : JdbcDialect.GENERIC);
		if (dialect.isMissingTable(ex)) {
			return new MissingTableException(missingTableName(dialect, ex), dialect.schemaScript(), ex);
		}
		DataAccessException translated = RegistryFailures.translate(task, ex);
		boolean retryable = RegistryFailures.isRetryable(translated);
		return new RegistryException("Could not " + task + " (query timeout " + this.queryTimeout + "): "
				+ ex.getMessage() + rootCause(ex) + (retryable ? "" : "; asking again cannot mend this"),
				(translated != null) ? translated : ex, retryable);
	}

	/**
	 * Names the registry table that is missing: the allocation table when both are, as a second look on a
	 * fresh connection tells, or else the one the database's message names.
	 */
	private String missingTableName(SqlDialect dialect, SQLException failure) {
		try {
			String missing = this.connections.run((connection) -> missingTable(connection, dialect));
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

	/** Names the innermost cause, which is where drivers and pools keep "connection refused" and the like. */
	static String rootCause(Throwable failure) {
		Throwable root = failure;
		for (int depth = 0; root.getCause() != null && root.getCause() != root && depth < 20; depth++) {
			root = root.getCause();
		}
		return (root != failure) ? "; root cause: " + root : "";
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
