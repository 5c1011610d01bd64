package dev.crid.jdbc;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * PostgreSQL: one atomic upsert that returns the block's start, the same statement as the Go crid's.
 * The row lock taken by {@code ON CONFLICT ... DO UPDATE} serialises concurrent allocations of one second.
 *
 * <p>The statement also sets {@code synchronous_commit = on} for its own transaction only (the
 * {@code set_config(..., true)} in the subquery is the {@code SET LOCAL} equivalent), so the commit waits
 * for the WAL flush even where the server or the pool turned synchronous commit off: an allocation that a
 * crash could lose would be handed out again, duplicating IDs. One round trip in auto-commit mode.
 */
final class PostgreSqlDialect extends SqlDialect {

	PostgreSqlDialect() {
		super(JdbcDialect.POSTGRESQL);
	}

	@Override
	long allocate(Connection connection, String table, long timestamp, long blockSize, int timeoutSeconds)
			throws SQLException {
		String sql = "INSERT INTO " + table + " AS a (ts, next_seq) SELECT ?, ? "
				+ "FROM (SELECT set_config('synchronous_commit', 'on', true)) AS durable "
				+ "ON CONFLICT (ts) DO UPDATE SET next_seq = a.next_seq + EXCLUDED.next_seq "
				+ "RETURNING a.next_seq - ?";
		return queryForLong(connection, sql, timeoutSeconds, timestamp, blockSize, blockSize);
	}

}
