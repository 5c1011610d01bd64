package dev.crid.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.jspecify.annotations.Nullable;

/**
 * The registry's two tables as such: whether they exist, creating them, and the metadata
 * table that a table made by the Go crid lacks. It adds that one where it may, else
 * decides once, with a warning, that the registry runs without it. Each method works on
 * the connection it is given, in auto-commit mode ({@link #prepareMetadata} sets it
 * itself).
 */
final class RegistrySchema {

	private static final Log logger = LogFactory.getLog(JdbcTemplateRegistry.class);

	private final RegistryTables tables;

	private final RegistryMetadata metadata;

	private final int queryTimeoutSeconds;

	/**
	 * Whether the registry may add a missing metadata table beside an existing allocation
	 * table.
	 */
	private final boolean createMetadataTable;

	/** Whether the metadata row is known to exist. */
	private volatile boolean metadataReady;

	/**
	 * Whether the registry runs without the metadata table, which is missing and could
	 * not or may not be added: no layout record, no eviction watermark, no evictions.
	 */
	private volatile boolean withoutMetadata;

	RegistrySchema(RegistryTables tables, RegistryMetadata metadata, int queryTimeoutSeconds,
			boolean createMetadataTable) {
		this.tables = tables;
		this.metadata = metadata;
		this.queryTimeoutSeconds = queryTimeoutSeconds;
		this.createMetadataTable = createMetadataTable;
	}

	/** Whether the registry runs without the metadata table. */
	boolean withoutMetadata() {
		return this.withoutMetadata;
	}

	/**
	 * Makes the next {@link #prepareMetadata} look for the metadata row again (it may
	 * have been deleted).
	 */
	void forgetMetadataRow() {
		this.metadataReady = false;
	}

	/**
	 * Makes sure the metadata row exists, adding the metadata table first where it is
	 * missing beside an existing allocation table (one the Go crid made) and the registry
	 * may add it; returns {@code false} when the registry runs without it from now on,
	 * after one warning.
	 * @throws SQLException when the allocation table is missing too, or the database
	 * fails
	 */
	boolean prepareMetadata(Connection connection, SqlDialect dialect) throws SQLException {
		if (this.withoutMetadata) {
			return false;
		}
		if (this.metadataReady) {
			return true;
		}
		return Boolean.TRUE.equals(RegistryStorage.withAutoCommit(connection, true, () -> {
			if (!tableExists(connection, dialect, this.tables.meta()) && !addMetadataTable(connection, dialect)) {
				return false;
			}
			this.metadata.ensureRow(connection);
			this.metadataReady = true;
			return true;
		}));
	}

	/**
	 * Adds the metadata table beside the allocation table, if allowed; returns whether it
	 * exists now. When not, the registry runs without it, and says once what that costs.
	 */
	private boolean addMetadataTable(Connection connection, SqlDialect dialect) throws SQLException {
		// Only the metadata table is added here: a missing allocation table is the
		// application's to create.
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

	private String withoutMetadataWarning(SqlDialect dialect, @Nullable SQLException refusal) {
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

	/**
	 * Creates whichever of the two tables is missing, with the dialect's schema script.
	 */
	void ensureSchema(Connection connection, SqlDialect dialect) throws SQLException {
		String missing = missingTable(connection, dialect);
		if (missing == null) {
			return;
		}
		createTables(connection, dialect, SchemaScript.statements(dialect.schemaScript(), this.tables.allocations()));
		logger
			.info("Created the crid registry "
					+ (missing.equals(this.tables.meta())
							? "metadata table '" + this.tables.meta() + "' beside the table '"
									+ this.tables.allocations() + "'"
							: "tables '" + this.tables.allocations() + "' and '" + this.tables.meta() + "'")
					+ " with " + dialect.schemaScript());
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
				// The table may exist already (a script without IF NOT EXISTS), or
				// another process created it meanwhile: what counts is that both exist at
				// the end.
				firstFailure = (firstFailure != null) ? firstFailure : ex;
			}
		}
		if (missingTable(connection, dialect) != null) {
			throw (firstFailure != null) ? firstFailure
					: new SQLException("The schema script " + dialect.schemaScript() + " created no tables");
		}
	}

	/**
	 * Checks that the allocation table exists and can be read, and tells whether the
	 * metadata table does.
	 * @return whether the metadata table exists
	 */
	boolean verifySchema(Connection connection, SqlDialect dialect) throws SQLException {
		probe(connection, this.tables.allocations());
		return tableExists(connection, dialect, this.tables.meta());
	}

	/**
	 * Returns the name of a registry table that does not exist, or {@code null} when both
	 * do.
	 */
	@Nullable String missingTable(Connection connection, SqlDialect dialect) throws SQLException {
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

}
