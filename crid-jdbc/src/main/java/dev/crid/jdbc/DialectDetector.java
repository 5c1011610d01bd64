package dev.crid.jdbc;

import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
	 * Whether the connection's driver is MySQL Connector/J, which refuses
	 * {@code executeQuery()} for a statement that begins with {@code INSERT},
	 * {@code RETURNING} or not.
	 */
	static boolean isMySqlConnectorJ(DatabaseMetaData metaData) throws SQLException {
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
