package dev.crid.sql;

import java.lang.System.Logger.Level;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The registry's two tables as such: whether they exist, creating them, and the metadata
 * table that a table made by the Go crid lacks. It adds that one where it may, else
 * decides once, with a warning, that the registry runs without it. Each method works on
 * the session it is given, in auto-commit mode.
 */
final class RegistrySchema {

	private final RegistryTables tables;

	private final RegistryMetadata metadata;

	private final System.Logger logger;

	/** The registry's class, named in messages: {@code JdbcTemplateRegistry}. */
	private final String registryName;

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

	RegistrySchema(RegistryTables tables, RegistryMetadata metadata, boolean createMetadataTable, System.Logger logger,
			String registryName) {
		this.tables = tables;
		this.metadata = metadata;
		this.createMetadataTable = createMetadataTable;
		this.logger = logger;
		this.registryName = registryName;
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
	 * @throws E when the allocation table is missing too, or the database fails
	 */
	<E extends Exception> boolean prepareMetadata(SqlSession<E> session) throws E {
		if (this.withoutMetadata) {
			return false;
		}
		if (this.metadataReady) {
			return true;
		}
		if (!tableExists(session, this.tables.meta()) && !addMetadataTable(session)) {
			return false;
		}
		this.metadata.ensureRow(session);
		this.metadataReady = true;
		return true;
	}

	/**
	 * Adds the metadata table beside the allocation table, if allowed; returns whether it
	 * exists now. When not, the registry runs without it, and says once what that costs.
	 */
	private <E extends Exception> boolean addMetadataTable(SqlSession<E> session) throws E {
		// Only the metadata table is added here: a missing allocation table is the
		// application's to create.
		probe(session, this.tables.allocations());
		Exception refusal = null;
		String script = session.dialect().schemaScript();
		if (this.createMetadataTable) {
			try {
				createTables(session, SchemaScript.metadataStatements(script, this.tables.allocations()));
				this.logger.log(Level.INFO,
						"Added the crid metadata table '" + this.tables.meta() + "' beside the registry table '"
								+ this.tables.allocations()
								+ "', which had none (as a table made by the Go crid has none)");
				return true;
			}
			catch (Exception ex) {
				refusal = ex;
			}
		}
		synchronized (this) {
			if (!this.withoutMetadata) {
				this.withoutMetadata = true;
				this.logger.log(Level.WARNING, withoutMetadataWarning(script, refusal));
			}
		}
		return false;
	}

	private String withoutMetadataWarning(String script, @Nullable Exception refusal) {
		return "crid registry table '" + this.tables.allocations() + "' has no metadata table '" + this.tables.meta()
				+ "' beside it (a table made by the Go crid has none), and "
				+ ((refusal != null) ? "the registry could not add it (" + refusal.getMessage() + ")"
						: "the registry was told not to add it")
				+ ": it runs without the layout record and the eviction watermark kept there, so a node with "
				+ "another epoch or bit split is not refused (its IDs could collide with the others') and no rows "
				+ "are evicted (the table keeps a row per second used). Add the table with " + this.registryName
				+ ".ensureSchema() or the CREATE TABLE of '" + this.tables.meta() + "' in " + script
				+ ", then restart the nodes";
	}

	/**
	 * Creates whichever of the two tables is missing, with the dialect's schema script.
	 */
	<E extends Exception> void ensureSchema(SqlSession<E> session) throws E {
		String missing = missingTable(session, this.tables);
		if (missing == null) {
			return;
		}
		String script = session.dialect().schemaScript();
		createTables(session, SchemaScript.statements(script, this.tables.allocations()));
		this.logger.log(Level.INFO,
				"Created the crid registry "
						+ (missing.equals(this.tables.meta())
								? "metadata table '" + this.tables.meta() + "' beside the table '"
										+ this.tables.allocations() + "'"
								: "tables '" + this.tables.allocations() + "' and '" + this.tables.meta() + "'")
						+ " with " + script);
	}

	/**
	 * Runs the DDL statements, and makes sure that both tables exist afterwards.
	 * @throws E the first failure of a statement when a table is still missing
	 */
	private <E extends Exception> void createTables(SqlSession<E> session, List<String> statements) throws E {
		Exception firstFailure = null;
		for (String sql : statements) {
			try {
				session.update(sql);
			}
			catch (Exception ex) {
				// The table may exist already (a script without IF NOT EXISTS), or
				// another process created it meanwhile: what counts is that both exist at
				// the end.
				firstFailure = (firstFailure != null) ? firstFailure : ex;
			}
		}
		if (missingTable(session, this.tables) == null) {
			return;
		}
		if (firstFailure == null) {
			throw new IllegalStateException(
					"The schema script " + session.dialect().schemaScript() + " created no tables");
		}
		throw RegistrySchema.<E>rethrown(firstFailure);
	}

	/**
	 * Returns a failure of the session's statements as what it is: unchecked, or the
	 * session's own exception, which is the only checked one its statements throw.
	 */
	@SuppressWarnings("unchecked") // the only checked exception is the session's own E
	private static <E extends Exception> E rethrown(Exception failure) {
		if (failure instanceof RuntimeException unchecked) {
			throw unchecked;
		}
		return (E) failure;
	}

	/**
	 * Checks that the allocation table exists and can be read, and tells whether the
	 * metadata table does.
	 * @return whether the metadata table exists
	 */
	<E extends Exception> boolean verifySchema(SqlSession<E> session) throws E {
		probe(session, this.tables.allocations());
		return tableExists(session, this.tables.meta());
	}

	/**
	 * Returns the name of a registry table that does not exist, or {@code null} when both
	 * do.
	 */
	static <E extends Exception> @Nullable String missingTable(SqlSession<E> session, RegistryTables tables) throws E {
		for (String table : List.of(tables.allocations(), tables.meta())) {
			if (!tableExists(session, table)) {
				return table;
			}
		}
		return null;
	}

	/** Whether the table exists; throws when it cannot be read for another reason. */
	private static <E extends Exception> boolean tableExists(SqlSession<E> session, String table) throws E {
		try {
			probe(session, table);
			return true;
		}
		catch (Exception ex) {
			if (session.isMissingTable(ex)) {
				return false;
			}
			throw ex;
		}
	}

	private static <E extends Exception> void probe(SqlSession<E> session, String table) throws E {
		session.queryRow("SELECT * FROM " + table + " WHERE 1 = 0");
	}

}
