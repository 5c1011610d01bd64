package dev.crid.jdbc;

import dev.crid.testsupport.TestDatabase;

/**
 * A table the Go crid made, on PostgreSQL.
 */
class PostgreSqlGoMadeTableIntegrationTest extends AbstractGoMadeTableIntegrationTest {

	@Override
	protected TestDatabase database() {
		return TestDatabase.POSTGRESQL;
	}

	@Override
	protected String[] createUserWithoutCreateRights(String user, String table) {
		// Since PostgreSQL 15 only the owner of the public schema may create tables in
		// it.
		return new String[] { "CREATE ROLE " + user + " LOGIN PASSWORD '" + PASSWORD + "'",
				"GRANT SELECT, INSERT, UPDATE ON " + table + " TO " + user,
				"REVOKE CREATE ON SCHEMA public FROM " + user };
	}

	@Override
	protected String[] dropUser(String user, String table) {
		return new String[] { "REVOKE ALL ON " + table + " FROM " + user, "DROP ROLE IF EXISTS " + user };
	}

}
