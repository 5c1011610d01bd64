package dev.crid.jdbc;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;

import javax.sql.DataSource;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.dao.DataAccessException;

import dev.crid.CridLayout;
import dev.crid.LayoutMismatchException;
import dev.crid.Registry;
import dev.crid.RegistryException;

/**
 * Does the registry's database work: reservations, with retries where a retry is safe;
 * the layout check and evictions on the metadata table; dialect detection; and the
 * translation of every failure into a {@link RegistryException} that names its root
 * cause. What concerns the tables themselves is {@link RegistrySchema}'s. Each operation
 * runs on the calling thread, on a connection of its own from
 * {@link RegistryConnections}.
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
	private final @Nullable JdbcDialect forcedDialect;

	/**
	 * The dialect's SQL for the data source's driver, known from the first connection on.
	 */
	private volatile @Nullable SqlDialect sqlDialect;

	private final RegistrySchema schema;

	/** The layout the registry table is known to serve, once checked. */
	private volatile @Nullable CridLayout checkedLayout;

	RegistryStorage(DataSource dataSource, String tableName, Duration queryTimeout, @Nullable JdbcDialect dialect,
			boolean createMetadataTable) {
		this.tables = new RegistryTables(tableName);
		this.queryTimeout = queryTimeout;
		this.queryTimeoutSeconds = (int) Math.max(1, (queryTimeout.toMillis() + 999) / 1000);
		this.connections = new RegistryConnections(dataSource, queryTimeout);
		this.metadata = new RegistryMetadata(this.tables, this.queryTimeoutSeconds);
		this.schema = new RegistrySchema(this.tables, this.metadata, this.queryTimeoutSeconds, createMetadataTable);
		this.forcedDialect = dialect;
	}

	Registry.Reservation reserve(long timestamp, long blockSize) {
		String task = "reserve " + blockSize + " sequence numbers of timestamp " + timestamp + " in table '"
				+ this.tables.allocations() + "'";
		return call(task, (connection) -> {
			SqlDialect dialect = dialect(connection);
			boolean guarded = this.schema.prepareMetadata(connection, dialect);
			checkDurability(dialect, connection);
			Registry.Reservation reservation = allocate(connection, dialect, timestamp, blockSize, guarded);
			if (reservation == null) {
				// The row may have been deleted by hand since: add it again, and try once
				// more.
				this.schema.forgetMetadataRow();
				guarded = this.schema.prepareMetadata(connection, dialect);
				reservation = allocate(connection, dialect, timestamp, blockSize, guarded);
			}
			if (reservation == null) {
				throw evicted(connection, timestamp);
			}
			return reservation;
		});
	}

	private Registry.@Nullable Reservation allocate(Connection connection, SqlDialect dialect, long timestamp,
			long blockSize, boolean guarded) throws SQLException {
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
	 * Waits a random moment before a retry, so that transactions that collided (on a new
	 * row, or in a deadlock) do not collide again in lockstep.
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
	 * Whether the registry runs without the metadata table (see
	 * {@link RegistrySchema#prepareMetadata}): then nothing is evicted, as evictions need
	 * the watermark kept there.
	 */
	boolean withoutMetadata() {
		return this.schema.withoutMetadata();
	}

	/** The layout the table was found to serve, or {@code null} before a check. */
	@Nullable CridLayout checkedLayout() {
		return this.checkedLayout;
	}

	void checkLayout(CridLayout layout) {
		if (layout.equals(this.checkedLayout)) {
			return;
		}
		CridLayout recorded = run("check the layout of the crid registry table '" + this.tables.allocations() + "'",
				(connection) -> {
					if (!this.schema.prepareMetadata(connection, dialect(connection))) {
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
	 * Raises the eviction watermark to {@code before}, then deletes the rows below it for
	 * at most {@code budgetNanos}.
	 */
	RegistryMetadata.Deleted evict(long before, long budgetNanos) {
		long deadline = System.nanoTime() + budgetNanos;
		return call("evict the seconds before " + before + " from the crid registry table '" + this.tables.allocations()
				+ "'", (connection) -> {
					if (!this.schema.prepareMetadata(connection, dialect(connection))) {
						throw new RegistryException("Cannot evict from the crid registry table '"
								+ this.tables.allocations() + "': it has no metadata table '" + this.tables.meta()
								+ "' to keep the eviction watermark "
								+ "in, without which a node whose clock lags behind could reserve an evicted second "
								+ "again; add it with JdbcTemplateRegistry.ensureSchema()", null, false);
					}
					return withAutoCommit(connection, true, () -> {
						this.metadata.raiseWatermark(connection, before);
						return this.metadata.deleteBefore(connection, before, deadline);
					});
				});
	}

	void ensureSchema() {
		run("create the crid registry tables '" + this.tables.allocations() + "' and '" + this.tables.meta() + "'",
				(connection) -> withAutoCommit(connection, true, () -> {
					this.schema.ensureSchema(connection, dialect(connection));
					return null;
				}));
	}

	boolean verifySchema() {
		return call(
				"read the crid registry tables '" + this.tables.allocations() + "' and '" + this.tables.meta() + "'",
				(connection) -> withAutoCommit(connection, true,
						() -> this.schema.verifySchema(connection, dialect(connection))));
	}

	/**
	 * Returns the dialect: the one set, else the one detected, connecting to detect it if
	 * need be.
	 */
	JdbcDialect dialect() {
		JdbcDialect known = knownDialect();
		if (known != null) {
			return known;
		}
		return call("detect the SQL dialect of the crid registry's database", this::dialect).dialect();
	}

	/**
	 * Returns the dialect if it is set or known already, else {@code null}; never touches
	 * the database.
	 */
	@Nullable JdbcDialect knownDialect() {
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
		SqlDialect resolved = SqlDialect.of(chosen, connection);
		synchronized (this) {
			if (this.sqlDialect == null) {
				this.sqlDialect = resolved;
				logger.info(dialectChoice(resolved, metaData));
			}
			return this.sqlDialect;
		}
	}

	private String dialectChoice(SqlDialect dialect, DatabaseMetaData databaseMetaData) throws SQLException {
		String product = databaseMetaData.getDatabaseProductName() + " " + databaseMetaData.getDatabaseProductVersion()
				+ " through " + databaseMetaData.getDriverName() + " " + databaseMetaData.getDriverVersion();
		String table = this.tables.allocations();
		String choice;
		if (this.forcedDialect != null) {
			choice = "crid registry table '" + table + "' uses the " + dialect.dialect() + " dialect, as set, on "
					+ product;
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

	/** Runs database work that always returns a value, as {@link #run} does. */
	private <T> T call(String task, RegistryConnections.Work<T> work) {
		return Objects.requireNonNull(run(task, work), () -> "No result from the work to " + task);
	}

	/**
	 * Runs database work on a connection of its own, turning every failure into a
	 * RegistryException.
	 */
	private <T> @Nullable T run(String task, RegistryConnections.Work<T> work) {
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
		return new RegistryException(
				"Could not " + task + " (query timeout " + this.queryTimeout + "): " + ex.getMessage() + rootCause(ex)
						+ (retryable ? "" : "; asking again cannot mend this"),
				(translated != null) ? translated : ex, retryable);
	}

	/**
	 * Names the registry table that is missing: the allocation table when both are, as a
	 * second look on a fresh connection tells, or else the one the database's message
	 * names.
	 */
	private String missingTableName(SqlDialect dialect, SQLException failure) {
		try {
			String missing = this.connections.run((connection) -> this.schema.missingTable(connection, dialect));
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
	 * Names the innermost cause, which is where drivers and pools keep "connection
	 * refused" and the like.
	 */
	static String rootCause(Throwable failure) {
		Throwable root = failure;
		for (int depth = 0; root.getCause() != null && root.getCause() != root && depth < 20; depth++) {
			root = root.getCause();
		}
		return (root != failure) ? "; root cause: " + root : "";
	}

	/**
	 * Runs the work with the connection's auto-commit mode as given, and restores the
	 * mode afterwards.
	 */
	static <T> @Nullable T withAutoCommit(Connection connection, boolean autoCommit, ConnectionWork<T> work)
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
					// A broken connection; the pool will discard it, and the work's own
					// outcome stands.
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
	 *
	 * @param <T> the result type
	 */
	@FunctionalInterface
	interface ConnectionWork<T> {

		@Nullable T run() throws SQLException;

	}

}
