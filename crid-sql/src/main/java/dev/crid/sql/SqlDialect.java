package dev.crid.sql;

import java.util.List;
import java.util.Locale;

/**
 * The statement families of the registries' databases: each holds how a block is reserved
 * in one database's SQL, and names that database's schema script. A registry module picks
 * the family its connection's database and driver accept, and runs it through its
 * {@link SqlSession}.
 */
public enum SqlDialect {

	/**
	 * PostgreSQL and the databases that speak its SQL: one atomic
	 * {@code INSERT ... ON CONFLICT ... DO UPDATE ... RETURNING} that makes its own
	 * commit durable and reads the database's clock.
	 */
	POSTGRESQL,

	/**
	 * MariaDB 10.5 and later: one atomic
	 * {@code INSERT ... ON DUPLICATE KEY UPDATE ... RETURNING} that reads the database's
	 * clock. On a Galera cluster member a store reserves with the {@link #MYSQL}
	 * statements instead.
	 */
	MARIADB,

	/**
	 * MySQL (and MariaDB where {@code RETURNING} cannot be used or is not safe): one
	 * atomic {@code INSERT ... ON DUPLICATE KEY UPDATE} through
	 * {@code LAST_INSERT_ID(expr)}, then a query that reads it back with the database's
	 * clock.
	 */
	MYSQL,

	/**
	 * H2: a {@code MERGE} read back through {@code FINAL TABLE}, in a short transaction.
	 */
	H2,

	/**
	 * Plain SQL for any other database: {@code UPDATE}, then {@code INSERT} when the row
	 * is new, in a short transaction.
	 */
	GENERIC;

	/**
	 * Returns the dialect's name in lower case, as the schema script, logs and health
	 * details show it.
	 * @return such as {@code postgresql}
	 */
	public String id() {
		return name().toLowerCase(Locale.ROOT);
	}

	/**
	 * Returns the classpath location of the script that creates the registry's two tables
	 * under their default names.
	 * @return such as {@code dev/crid/jdbc/schema-postgresql.sql}
	 */
	public String schemaScript() {
		return "dev/crid/jdbc/schema-" + id() + ".sql";
	}

	/**
	 * Returns the statements of the schema script for the given tables.
	 * @param tables the registry's tables
	 * @return the script's statements, without comments or terminating semicolons
	 */
	public List<String> schemaStatements(RegistryTables tables) {
		return SchemaScript.statements(schemaScript(), tables.allocations());
	}

	Statements statements() {
		return switch (this) {
			case POSTGRESQL -> Families.POSTGRESQL;
			case MARIADB -> Families.MARIADB;
			case MYSQL -> Families.MYSQL;
			case H2 -> Families.H2;
			case GENERIC -> Families.GENERIC;
		};
	}

	/**
	 * One instance of each family's statements. Held here rather than in
	 * {@link Statements} itself, whose subclasses they are: a class that creates its
	 * subclasses while it is initialized can deadlock two threads that initialize the
	 * class and a subclass at once.
	 */
	private static final class Families {

		static final Statements POSTGRESQL = new PostgreSqlStatements();

		static final Statements MARIADB = new MariaDbStatements();

		static final Statements MYSQL = new MySqlStatements();

		static final Statements H2 = new H2Statements();

		static final Statements GENERIC = new GenericStatements();

	}

}
