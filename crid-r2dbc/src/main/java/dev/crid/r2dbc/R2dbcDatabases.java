package dev.crid.r2dbc;

import java.util.Locale;

import org.jspecify.annotations.Nullable;

import dev.crid.sql.SqlDialect;

/**
 * The databases the R2DBC registry knows, told by the name a connection factory's
 * metadata gives, and how their drivers mark parameters.
 */
final class R2dbcDatabases {

	/** What a refusal lists as supported. */
	static final String SUPPORTED = "PostgreSQL, MariaDB (10.5 and later) and H2";

	private R2dbcDatabases() {
	}

	/**
	 * Returns the statements for the database a connection factory's metadata names, or
	 * {@code null} when the registry has none for it.
	 */
	static @Nullable SqlDialect dialect(@Nullable String databaseName) {
		String name = String.valueOf(databaseName).toLowerCase(Locale.ROOT);
		if (name.contains("postgres")) {
			return SqlDialect.POSTGRESQL;
		}
		if (name.contains("mariadb")) {
			return SqlDialect.MARIADB;
		}
		if (name.equals("h2")) {
			return SqlDialect.H2;
		}
		return null;
	}

	/**
	 * Puts the driver's parameter markers in place of each {@code ?} of a statement: the
	 * PostgreSQL and H2 drivers number them ({@code $1, $2, ...}), the MariaDB driver
	 * takes {@code ?}. The shared statements have no {@code ?} but their markers.
	 */
	static String markers(SqlDialect dialect, String sql) {
		if (dialect == SqlDialect.MARIADB) {
			return sql;
		}
		StringBuilder numbered = new StringBuilder(sql.length() + 8);
		int next = 1;
		for (int i = 0; i < sql.length(); i++) {
			char c = sql.charAt(i);
			if (c == '?') {
				numbered.append('$').append(next++);
			}
			else {
				numbered.append(c);
			}
		}
		return numbered.toString();
	}

}
