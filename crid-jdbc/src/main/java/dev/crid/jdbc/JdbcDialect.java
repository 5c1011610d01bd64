package dev.crid.jdbc;

/**
 * The SQL dialects a {@link JdbcTemplateRegistry} speaks. The registry detects the dialect from the
 * connection's {@link java.sql.DatabaseMetaData#getDatabaseProductName() product name} unless one is set
 * on its builder; each dialect has a schema script at {@code dev/crid/jdbc/schema-<name>.sql}, where
 * {@code <name>} is the constant's name in lower case.
 */
public enum JdbcDialect {

	/**
	 * PostgreSQL, and databases that speak its SQL and report its product name: one atomic
	 * {@code INSERT ... ON CONFLICT ... DO UPDATE ... RETURNING} that also makes its own commit durable
	 * ({@code synchronous_commit = on} for that transaction) whatever the server's default.
	 */
	POSTGRESQL,

	/** MariaDB 10.5 or later: one atomic {@code INSERT ... ON DUPLICATE KEY UPDATE ... RETURNING}. */
	MARIADB,

	/**
	 * MySQL (and MariaDB before 10.5): one atomic {@code INSERT ... ON DUPLICATE KEY UPDATE} that passes the
	 * new value through {@code LAST_INSERT_ID(expr)} in both of its branches.
	 */
	MYSQL,

	/** H2: one atomic {@code MERGE} read back through {@code FINAL TABLE}. */
	H2,

	/**
	 * Any other JDBC database: {@code UPDATE}, then {@code INSERT} when the row is new, in one short
	 * transaction that is retried when a concurrent insert of the same row wins.
	 */
	GENERIC

}
