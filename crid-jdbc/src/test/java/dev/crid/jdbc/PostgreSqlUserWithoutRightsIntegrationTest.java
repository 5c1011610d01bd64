package dev.crid.jdbc;

import dev.crid.testsupport.TestDatabase;

/**
 * A user without rights on the registry's tables, on PostgreSQL.
 */
class PostgreSqlUserWithoutRightsIntegrationTest extends AbstractUserWithoutRightsIntegrationTest {

	@Override
	protected TestDatabase database() {
		return TestDatabase.POSTGRESQL;
	}

	@Override
	protected String[] createUser(String user, String table) {
		return new String[] { "CREATE ROLE " + user + " LOGIN PASSWORD '" + PASSWORD + "'",
				"GRANT SELECT ON " + table + " TO " + user };
	}

	@Override
	protected String[] dropUser(String user, String table) {
		return new String[] { "REVOKE ALL ON " + table + " FROM " + user, "DROP ROLE IF EXISTS " + user };
	}

}
