package dev.crid.sql;

import org.jspecify.annotations.Nullable;

/**
 * MariaDB 10.5 and later: one atomic
 * {@code INSERT ... SELECT ... ON DUPLICATE KEY UPDATE ... RETURNING}, which returns the
 * row as stored by either branch, so the block starts at the returned value minus the
 * block size. The {@code SELECT} reads the eviction watermark with
 * {@code LOCK IN SHARE MODE}, so an eviction that raises it waits for running
 * reservations and they for it, whatever the isolation level. InnoDB's row lock
 * serialises concurrent reservations of one second; {@code NOW(6)} tells the database's
 * clock. One round trip.
 *
 * <p>
 * Two cases run the {@link SqlDialect#MYSQL} statements instead, which MariaDB runs with
 * the same meaning: a driver that refuses {@code INSERT ... RETURNING} as a query (MySQL
 * Connector/J), which the registry module knows, and a member of a Galera cluster, where
 * the rows of {@code RETURNING} may come from a run of the statement that the member
 * rolled back and ran again ({@link StatementChoice}).
 */
final class MariaDbStatements extends Statements {

	@Override
	<E extends Exception> @Nullable SqlReservation reserve(SqlSession<E> session, RegistryTables tables, long timestamp,
			long blockSize, boolean guarded) throws E {
		String sql = "INSERT INTO " + tables.allocations() + " (ts, next_seq) " + mySqlRowSource(tables, guarded, "?")
				+ "ON DUPLICATE KEY UPDATE next_seq = next_seq + ? RETURNING next_seq, UNIX_TIMESTAMP(NOW(6))";
		@Nullable Object @Nullable [] row = session.queryRow(sql, upsertParameters(guarded, timestamp, blockSize));
		return (row != null) ? new SqlReservation(longValue(row[0]) - blockSize, seconds(decimal(row[1]))) : null;
	}

	@Override
	<E extends Exception> @Nullable String durabilityWarning(SqlSession<E> session) throws E {
		return MySqlStatements.innoDbDurabilityWarning(session);
	}

}
