package dev.crid.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

import org.jspecify.annotations.Nullable;

import dev.crid.Registry;

/**
 * MariaDB 10.5 and later: one atomic {@code INSERT ... SELECT ... ON DUPLICATE KEY UPDATE ... RETURNING},
 * which returns the row as stored by either branch, so the block starts at the returned value minus the
 * block size. The {@code SELECT} reads the eviction watermark with {@code LOCK IN SHARE MODE}, so an
 * eviction that raises it waits for running allocations and they for it, whatever the isolation level.
 * InnoDB's row lock serialises concurrent allocations of one second; {@code NOW(6)} tells the database's
 * clock. One round trip.
 */
final class MariaDbDialect extends SqlDialect {

	MariaDbDialect() {
		super(JdbcDialect.MARIADB);
	}

	@Override
	Registry.@Nullable Reservation allocate(Connection connection, RegistryTables tables, long timestamp,
			long blockSize, int timeoutSeconds) throws SQLException {
		String sql = "INSERT INTO " + tables.allocations() + " (ts, next_seq) SELECT ?, ? FROM " + tables.meta()
				+ " WHERE id = 1 AND evicted_before <= ? LOCK IN SHARE MODE "
				+ "ON DUPLICATE KEY UPDATE next_seq = next_seq + ? RETURNING next_seq, UNIX_TIMESTAMP(NOW(6))";
		try (PreparedStatement statement = prepare(connection, sql, timeoutSeconds, timestamp, blockSize, timestamp,
				blockSize); ResultSet result = statement.executeQuery()) {
			return result.next() ? new Registry.Reservation(result.getLong(1) - blockSize, seconds(result.getBigDecimal(2)))
					: null;
		}
	}

	@Override
	@Nullable String durabilityWarning(Connection connection) throws SQLException {
		return MySqlDialect.innoDbDurabilityWarning(connection);
	}

}
