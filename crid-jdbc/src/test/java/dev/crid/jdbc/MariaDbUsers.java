package dev.crid.jdbc;

import java.util.Objects;

import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The SQL that creates and drops MariaDB users with fewer rights than the tests'
 * administrator, whichever driver the test connects with, and the database they connect
 * to.
 */
final class MariaDbUsers {

	private MariaDbUsers() {
	}

	/** A user who may read the allocation table and nothing else of the registry. */
	static String[] createUser(String user, String password, String table) {
		// Any privilege on a table of the database lets the user connect to it.
		return new String[] { "CREATE USER '" + user + "'@'%' IDENTIFIED BY '" + password + "'",
				"GRANT SELECT ON " + table + " TO '" + user + "'@'%'" };
	}

	/**
	 * A user who may read and write every table of the database but create none. Rights
	 * on the database rather than on the table: MariaDB tells a user without rights on a
	 * table that access is denied even where the table does not exist, so only such a
	 * user can learn that the metadata table is missing. {@code ON *} is the database the
	 * administrator's connection uses, whatever its name.
	 */
	static String[] createUserWithoutCreateRights(String user, String password) {
		return new String[] { "CREATE USER '" + user + "'@'%' IDENTIFIED BY '" + password + "'",
				"GRANT SELECT, INSERT, UPDATE ON * TO '" + user + "'@'%'" };
	}

	/** The database the connections of the template use. */
	static String currentDatabase(JdbcTemplate jdbcTemplate) {
		return Objects.requireNonNull(jdbcTemplate.queryForObject("SELECT DATABASE()", String.class),
				"the connection's database");
	}

	static String[] dropUser(String user) {
		return new String[] { "DROP USER IF EXISTS '" + user + "'@'%'" };
	}

}
