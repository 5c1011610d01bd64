package dev.crid.jdbc;

import org.jspecify.annotations.Nullable;

import dev.crid.RegistryException;

/**
 * Thrown when the registry's table does not exist. Its message names the table and the
 * classpath script that creates it; {@link JdbcTemplateRegistry#ensureSchema()} runs that
 * script too. Not {@link #isRetryable() retryable}: asking again cannot create the table,
 * so a node throws it to its caller at once.
 */
public class MissingTableException extends RegistryException {

	private static final long serialVersionUID = 1L;

	/** The missing table, as configured. */
	private final String tableName;

	/** The classpath location of the script that creates the table. */
	private final String schemaScript;

	/**
	 * Creates an exception for a missing table.
	 * @param tableName the table that is missing, as configured
	 * @param schemaScript the classpath location of the script that creates it
	 * @param cause the database's error, or {@code null}
	 */
	public MissingTableException(String tableName, String schemaScript, @Nullable Throwable cause) {
		super("The crid registry table '" + tableName + "' does not exist: create it with the script '" + schemaScript
				+ "' on the classpath, from Flyway or Liquibase, or from Spring Boot's schema scripts "
				+ "(spring.sql.init.schema-locations=classpath:" + schemaScript + ", with spring.sql.init.mode=always "
				+ "on a database that is not embedded), or call JdbcTemplateRegistry.ensureSchema()", cause, false);
		this.tableName = tableName;
		this.schemaScript = schemaScript;
	}

	/**
	 * Returns the table that is missing.
	 * @return the table name as configured, perhaps schema-qualified
	 */
	public String tableName() {
		return this.tableName;
	}

	/**
	 * Returns the classpath location of the script that creates the table.
	 * @return a location such as {@code dev/crid/jdbc/schema-postgresql.sql}
	 */
	public String schemaScript() {
		return this.schemaScript;
	}

}
