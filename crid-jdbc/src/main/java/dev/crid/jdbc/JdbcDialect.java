package dev.crid.jdbc;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

import dev.crid.sql.SqlDialect;

/**
 * The SQL dialects a {@link JdbcTemplateRegistry} speaks. The registry detects the
 * dialect from the connection's {@link java.sql.DatabaseMetaData#getDatabaseProductName()
 * product name} unless one is set on its builder; each dialect has a schema script at
 * {@code dev/crid/jdbc/schema-<name>.sql}, where {@code <name>} is the constant's name in
 * lower case. A dialect names what the database speaks; the registry picks the statements
 * that the connection's driver accepts within it (see
 * {@link JdbcTemplateRegistry.Builder#dialect(JdbcDialect)}), so there is one constant
 * per database, not per driver.
 */
public enum JdbcDialect {

	/**
	 * PostgreSQL, and databases that speak its SQL and report its product name: one
	 * atomic {@code INSERT ... ON CONFLICT ... DO UPDATE ... RETURNING} that also makes
	 * its own commit durable ({@code synchronous_commit = on} for that transaction)
	 * whatever the server's default.
	 */
	POSTGRESQL,

	/**
	 * MariaDB 10.5 or later: one atomic
	 * {@code INSERT ... ON DUPLICATE KEY UPDATE ... RETURNING}.
	 */
	MARIADB,

	/**
	 * MySQL (and MariaDB before 10.5): one atomic
	 * {@code INSERT ... ON DUPLICATE KEY UPDATE} that passes the new value through
	 * {@code LAST_INSERT_ID(expr)} in both of its branches.
	 */
	MYSQL,

	/** H2: one atomic {@code MERGE} read back through {@code FINAL TABLE}. */
	H2,

	/**
	 * Any other JDBC database: {@code UPDATE}, then {@code INSERT} when the row is new,
	 * in one short transaction that is retried when a concurrent insert of the same row
	 * wins.
	 */
	GENERIC;

	/**
	 * Returns the dialect of the given name, such as one read from configuration: the
	 * constant's name in any case ({@code postgresql}, {@code MariaDB}), surrounding
	 * blanks ignored.
	 * @param name the dialect's name
	 * @return the dialect
	 * @throws IllegalArgumentException when no dialect has that name; the message quotes
	 * it and names every known dialect
	 */
	public static JdbcDialect of(String name) {
		String wanted = (name != null) ? name.strip() : "";
		for (JdbcDialect dialect : values()) {
			if (dialect.name().equalsIgnoreCase(wanted)) {
				return dialect;
			}
		}
		throw new IllegalArgumentException("Unknown crid JDBC dialect " + ((name != null) ? "\"" + name + "\"" : "null")
				+ ": the known dialects are " + names());
	}

	/**
	 * Returns the statements of this dialect, shared with the R2DBC registry.
	 * @return the statements of the same name
	 */
	SqlDialect statements() {
		return switch (this) {
			case POSTGRESQL -> SqlDialect.POSTGRESQL;
			case MARIADB -> SqlDialect.MARIADB;
			case MYSQL -> SqlDialect.MYSQL;
			case H2 -> SqlDialect.H2;
			case GENERIC -> SqlDialect.GENERIC;
		};
	}

	/**
	 * Returns the names of every dialect, in lower case, for messages and documentation.
	 * @return the names, separated by commas, such as
	 * {@code postgresql, mariadb, mysql, h2, generic}
	 */
	public static String names() {
		return Arrays.stream(values())
			.map((dialect) -> dialect.name().toLowerCase(Locale.ROOT))
			.collect(Collectors.joining(", "));
	}

}
