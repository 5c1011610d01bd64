package dev.crid.jdbc;

import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import dev.crid.sql.SqlDialect;

/**
 * Picks the dialect for a database from its JDBC metadata. Products it does not know get
 * {@link JdbcDialect#GENERIC}, which works on any database that has primary keys.
 */
final class DialectDetector {

	private static final Pattern MARIADB_VERSION = Pattern.compile("(\\d+)\\.(\\d+)\\.\\d+-MariaDB");

	private DialectDetector() {
	}

	static JdbcDialect detect(DatabaseMetaData metaData) throws SQLException {
		String product = metaData.getDatabaseProductName();
		String version = metaData.getDatabaseProductVersion();
		return switch ((product != null) ? product : "") {
			case "PostgreSQL" -> JdbcDialect.POSTGRESQL;
			case "MariaDB" -> mariaDb(metaData);
			// MySQL's own driver reports "MySQL" for a MariaDB server too; its version
			// tells them apart.
			case "MySQL" -> (version != null && version.contains("MariaDB")) ? mariaDb(metaData) : JdbcDialect.MYSQL;
			case "H2" -> JdbcDialect.H2;
			default -> JdbcDialect.GENERIC;
		};
	}

	/**
	 * Returns the statements the registry runs for a database's dialect through the
	 * connection's driver: the dialect's own, except the MARIADB dialect through MySQL
	 * Connector/J, which refuses {@code executeQuery()} for every statement that begins
	 * with {@code INSERT} ("cannot issue statements that do not produce result sets"):
	 * that reserves with the MYSQL dialect's {@code LAST_INSERT_ID(expr)} statement,
	 * which MariaDB runs with the same meaning, in two round trips. (Connector/J's
	 * {@code execute()} happens to return the rows of {@code RETURNING}, but that is
	 * nothing it promises; {@code LAST_INSERT_ID(expr)} is what MySQL's own driver is
	 * made for.)
	 */
	static SqlDialect statements(JdbcDialect dialect, DatabaseMetaData metaData) throws SQLException {
		return (dialect == JdbcDialect.MARIADB && isMySqlConnectorJ(metaData)) ? SqlDialect.MYSQL
				: dialect.statements();
	}

	/**
	 * Says, for the log, why the statements differ from the dialect's own, or returns
	 * {@code null} when they do not.
	 */
	static @Nullable String statementChoice(JdbcDialect dialect, SqlDialect statements) {
		return (statements == dialect.statements()) ? null
				: "MySQL Connector/J refuses INSERT ... RETURNING as a query, so it reserves with the MYSQL "
						+ "dialect's LAST_INSERT_ID(expr) statement, in two round trips";
	}

	private static boolean isMySqlConnectorJ(DatabaseMetaData metaData) throws SQLException {
		String driver = metaData.getDriverName();
		return driver != null && driver.startsWith("MySQL Connector");
	}

	/**
	 * {@code RETURNING} on {@code INSERT} came with MariaDB 10.5; older servers get the
	 * MySQL form.
	 */
	private static JdbcDialect mariaDb(DatabaseMetaData metaData) throws SQLException {
		// MySQL's driver reports a MariaDB server as version 5.5.5 and keeps the real one
		// in the version text.
		Matcher version = MARIADB_VERSION.matcher(String.valueOf(metaData.getDatabaseProductVersion()));
		boolean found = version.find();
		int major = found ? Integer.parseInt(version.group(1)) : metaData.getDatabaseMajorVersion();
		int minor = found ? Integer.parseInt(version.group(2)) : metaData.getDatabaseMinorVersion();
		return (major > 10 || (major == 10 && minor >= 5)) ? JdbcDialect.MARIADB : JdbcDialect.MYSQL;
	}

}
