package dev.crid.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

import org.jspecify.annotations.Nullable;

import dev.crid.Registry;

/**
 * MariaDB 10.5 and later: one atomic
 * {@code INSERT ... SELECT ... ON DUPLICATE KEY UPDATE ... RETURNING}, which returns the
 * row as stored by either branch, so the block starts at the returned value minus the
 * block size. The {@code SELECT} reads the eviction watermark with
 * {@code LOCK IN SHARE MODE}, so an eviction that raises it waits for running allocations
 * and they for it, whatever the isolation level. InnoDB's row lock serialises concurrent
 * allocations of one second; {@code NOW(6)} tells the database's clock. One round trip.
 *
 * <p>
 * Through MySQL Connector/J, which refuses {@code executeQuery()} for every statement
 * that begins with {@code INSERT} ("cannot issue statements that do not produce result
 * sets"), it reserves with the MYSQL dialect's {@code LAST_INSERT_ID(expr)} statement
 * instead, which MariaDB runs with the same meaning, in two round trips. (Connector/J's
 * {@code execute()} happens to return the rows of {@code RETURNING}, but that is nothing
 * it promises; {@code LAST_INSERT_ID(expr)} is what MySQL's own driver is made for.)
 */
final class MariaDbDialect extends SqlDialect {

	/** Whether the driver runs {@code INSERT ... RETURNING} as a query. */
	private final boolean returning;

	MariaDbDialect(boolean returning) {
		super(JdbcDialect.MARIADB);
		this.returning = returning;
	}

	@Override
	@Nullable String statementChoice() {
		return this.returning ? null
				: "MySQL Connector/J refuses INSERT ... RETURNING as a query, so it reserves with the MYSQL "
						+ "dialect's LAST_INSERT_ID(expr) statement, in two round trips";
	}

	@Override
	Registry.@Nullable Reservation allocate(Connection connection, RegistryTables tables, long timestamp,
			long blockSize, boolean guarded, int timeoutSeconds) throws SQLException {
		if (!this.returning) {
			return MySqlDialect.allocateThroughLastInsertId(connection, tables, timestamp, blockSize, guarded,
					timeoutSeconds);
		}
		String sql = "INSERT INTO " + tables.allocations() + " (ts, next_seq) " + mySqlRowSource(tables, guarded, "?")
				+ "ON DUPLICATE KEY UPDATE next_seq = next_seq + ? RETURNING next_seq, UNIX_TIMESTAMP(NOW(6))";
		try (PreparedStatement statement = prepare(connection, sql, timeoutSeconds,
				upsertParameters(guarded, timestamp, blockSize)); ResultSet result = statement.executeQuery()) {
			return result.next()
					? new Registry.Reservation(result.getLong(1) - blockSize, seconds(result.getBigDecimal(2))) : null;
		}
	}

	@Override
	@Nullable String durabilityWarning(Connection connection) throws SQLException {
		return MySqlDialect.innoDbDurabilityWarning(connection);
	}

}
