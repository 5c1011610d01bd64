package dev.crid.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

import org.jspecify.annotations.Nullable;

import dev.crid.Registry;

/**
 * MySQL, which has no {@code RETURNING}: one atomic
 * {@code INSERT ... SELECT ... ON DUPLICATE KEY UPDATE} that passes the row's new value
 * through {@code LAST_INSERT_ID(expr)}, then one query that reads it back with the
 * database's clock. The {@code SELECT} reads the eviction watermark with
 * {@code LOCK IN SHARE MODE}, so an eviction that raises it waits for running allocations
 * and they for it.
 *
 * <p>
 * The trap: when the row is new, the insert branch runs and an expression in the update
 * branch is never evaluated, so {@code LAST_INSERT_ID()} would still hold the value of an
 * earlier statement on the same pooled connection, and that block would be handed out
 * twice. So the insert branch passes its value through {@code LAST_INSERT_ID(?)} as well,
 * and the affected-row count decides: 1 means the row was inserted and the block starts
 * at 0, 2 means it was updated, 0 that the second was evicted.
 */
final class MySqlDialect extends SqlDialect {

	MySqlDialect() {
		super(JdbcDialect.MYSQL);
	}

	@Override
	Registry.@Nullable Reservation allocate(Connection connection, RegistryTables tables, long timestamp,
			long blockSize, boolean guarded, int timeoutSeconds) throws SQLException {
		return allocateThroughLastInsertId(connection, tables, timestamp, blockSize, guarded, timeoutSeconds);
	}

	/**
	 * The MYSQL dialect's reservation, which the MARIADB dialect uses too where the
	 * driver refuses {@code INSERT ... RETURNING} as a query.
	 */
	static Registry.@Nullable Reservation allocateThroughLastInsertId(Connection connection, RegistryTables tables,
			long timestamp, long blockSize, boolean guarded, int timeoutSeconds) throws SQLException {
		String sql = "INSERT INTO " + tables.allocations() + " (ts, next_seq) "
				+ mySqlRowSource(tables, guarded, "LAST_INSERT_ID(?)")
				+ "ON DUPLICATE KEY UPDATE next_seq = LAST_INSERT_ID(next_seq + ?)";
		int affected;
		try (PreparedStatement statement = prepare(connection, sql, timeoutSeconds,
				upsertParameters(guarded, timestamp, blockSize))) {
			affected = statement.executeUpdate();
		}
		if (affected == 0) {
			return null;
		}
		if (affected != 1 && affected != 2) {
			throw new SQLException("The allocation statement affected " + affected + " rows; expected 0, 1 or 2");
		}
		try (PreparedStatement read = prepare(connection, "SELECT LAST_INSERT_ID(), UNIX_TIMESTAMP(NOW(6))",
				timeoutSeconds); ResultSet result = read.executeQuery()) {
			if (!result.next()) {
				throw new SQLException("SELECT LAST_INSERT_ID() returned no row");
			}
			long start = (affected == 1) ? 0 : result.getLong(1) - blockSize;
			return new Registry.Reservation(start, seconds(result.getBigDecimal(2)));
		}
	}

	@Override
	@Nullable String durabilityWarning(Connection connection) throws SQLException {
		return innoDbDurabilityWarning(connection);
	}

	/** Warns when InnoDB does not flush its log at every commit. */
	static @Nullable String innoDbDurabilityWarning(Connection connection) throws SQLException {
		long setting = queryForLong(connection, "SELECT @@innodb_flush_log_at_trx_commit", 0);
		if (setting == 1) {
			return null;
		}
		return "innodb_flush_log_at_trx_commit is " + setting + ": a crash of the database server may lose "
				+ "the last second or so of committed allocations, and the registry would then hand those "
				+ "blocks out again (duplicate IDs); set it to 1";
	}

}
