package dev.crid.sql;

import org.jspecify.annotations.Nullable;

/**
 * PostgreSQL: one atomic upsert that returns the block's start, the Go crid's statement
 * guarded by the eviction watermark. The row lock taken by
 * {@code ON CONFLICT ... DO UPDATE} serialises concurrent reservations of one second;
 * {@code FOR SHARE} on the metadata row lets any number of reservations run together
 * while an eviction that raises the watermark waits for them, and they for it.
 *
 * <p>
 * The statement also sets {@code synchronous_commit = on} for its own transaction only
 * (the {@code set_config(..., true)} is the {@code SET LOCAL} equivalent), so the commit
 * waits for the WAL flush even where the server or the pool turned synchronous commit
 * off: a reservation that a crash could lose would be handed out again, duplicating IDs.
 * It returns {@code clock_timestamp()} too, so the node learns the database's clock. One
 * round trip in auto-commit mode.
 */
final class PostgreSqlStatements extends Statements {

	@Override
	<E extends Exception> @Nullable SqlReservation reserve(SqlSession<E> session, RegistryTables tables, long timestamp,
			long blockSize, boolean guarded) throws E {
		String guard = guarded ? "guard AS (SELECT evicted_before FROM " + tables.meta() + " WHERE id = 1 FOR SHARE), "
				: "";
		String source = guarded ? "FROM guard, durable WHERE guard.evicted_before <= ? " : "FROM durable ";
		String sql = "WITH " + guard + "durable AS (SELECT set_config('synchronous_commit', 'on', true)) "
				+ "INSERT INTO " + tables.allocations() + " AS a (ts, next_seq) SELECT ?, ? " + source
				+ "ON CONFLICT (ts) DO UPDATE SET next_seq = a.next_seq + EXCLUDED.next_seq "
				+ "RETURNING a.next_seq - ?, (extract(epoch FROM clock_timestamp()) * 1000000)::bigint";
		@Nullable Object @Nullable [] row = session.queryRow(sql, upsertParameters(guarded, timestamp, blockSize));
		return (row != null) ? new SqlReservation(longValue(row[0]), micros(longValue(row[1]))) : null;
	}

}
