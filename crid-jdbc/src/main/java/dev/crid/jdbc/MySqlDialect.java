package dev.crid.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * MySQL, which has no {@code RETURNING}: one atomic {@code INSERT ... ON DUPLICATE KEY UPDATE} that passes
 * the row's new value through {@code LAST_INSERT_ID(expr)}, read back from the insert id the server
 * reports with the statement's result (one round trip), or with {@code SELECT LAST_INSERT_ID()} when the
 * driver reports none.
 *
 * <p>The trap: when the row is new, the insert branch runs and an expression in the update branch is never
 * evaluated, so {@code LAST_INSERT_ID()} would still hold the value of an earlier statement on the same
 * pooled connection, and that block would be handed out twice. So the insert branch passes its value
 * through {@code LAST_INSERT_ID(?)} as well, and the affected-row count decides: 1 means the row was
 * inserted and the block starts at 0, 2 means it was updated.
 */
final class MySqlDialect extends SqlDialect {

	MySqlDialect() {
		super(JdbcDialect.MYSQL);
	}

	@Override
	long allocate(Connection connection, String table, long timestamp, long blockSize, int timeoutSeconds)
			throws SQLException {
		String sql = "INSERT INTO " + table + " (ts, next_seq) VALUES (?, LAST_INSERT_ID(?)) "
				+ "ON DUPLICATE KEY UPDATE next_seq = LAST_INSERT_ID(next_seq + ?)";
		try (PreparedStatement statement = connection.prepareStatement(sql, Statement.RETURN_GENERATED_KEYS)) {
			statement.setQueryTimeout(timeoutSeconds);
			statement.setLong(1, timestamp);
			statement.setLong(2, blockSize);
			statement.setLong(3, blockSize);
			int affected = statement.executeUpdate();
			if (affected == 1) {
				return 0;
			}
			if (affected != 2) {
				throw new SQLException("The allocation statement affected " + affected + " rows; expected 1 or 2");
			}
			return newValue(connection, statement, timeoutSeconds) - blockSize;
		}
	}

	private static long newValue(Connection connection, Statement statement, int timeoutSeconds) throws SQLException {
		try (ResultSet keys = statement.getGeneratedKeys()) {
			if (keys.next()) {
				return keys.getLong(1);
			}
		}
		return queryForLong(connection, "SELECT LAST_INSERT_ID()", timeoutSeconds);
	}

	@Override
	String durabilityWarning(Connection connection) throws SQLException {
		return innoDbDurabilityWarning(connection);
	}

	/** Warns when InnoDB does not flush its log at every commit. */
	static String innoDbDurabilityWarning(Connection connection) throws SQLException {
		long setting = queryForLong(connection, "SELECT @@innodb_flush_log_at_trx_commit", 0);
		if (setting == 1) {
			return null;
		}
		return "innodb_flush_log_at_trx_commit is " + setting + ": a crash of the database server may lose "
				+ "the last second or so of committed allocations, and the registry would then hand those "
				+ "blocks out again (duplicate IDs); set it to 1";
	}

}
