package dev.crid.jdbc;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * MariaDB 10.5 and later: one atomic {@code INSERT ... ON DUPLICATE KEY UPDATE ... RETURNING}, which
 * returns the row as stored by either branch, so the block starts at the returned value minus the block
 * size. InnoDB's row lock serialises concurrent allocations of one second. One round trip.
 */
final class MariaDbDialect extends SqlDialect {

	MariaDbDialect() {
		super(JdbcDialect.MARIADB);
	}

	@Override
	long allocate(Connection connection, String table, long timestamp, long blockSize, int timeoutSeconds)
			throws SQLException {
		String sql = "INSERT INTO " + table + " (ts, next_seq) VALUES (?, ?) "
				+ "ON DUPLICATE KEY UPDATE next_seq = next_seq + ? RETURNING next_seq";
		return queryForLong(connection, sql, timeoutSeconds, timestamp, blockSize, blockSize) - blockSize;
	}

	@Override
	String durabilityWarning(Connection connection) throws SQLException {
		return MySqlDialect.innoDbDurabilityWarning(connection);
	}

}
