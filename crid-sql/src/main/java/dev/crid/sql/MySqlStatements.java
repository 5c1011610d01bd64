package dev.crid.sql;

import org.jspecify.annotations.Nullable;

/**
 * MySQL, which has no {@code RETURNING}: one atomic
 * {@code INSERT ... SELECT ... ON DUPLICATE KEY UPDATE} that passes the row's new value
 * through {@code LAST_INSERT_ID(expr)}, then one query that reads it back with the
 * database's clock. The {@code SELECT} reads the eviction watermark with
 * {@code LOCK IN SHARE MODE}, so an eviction that raises it waits for running
 * reservations and they for it.
 *
 * <p>
 * The trap: when the row is new, the insert branch runs and an expression in the update
 * branch is never evaluated, so {@code LAST_INSERT_ID()} would still hold the value of an
 * earlier statement on the same pooled connection, and that block would be handed out
 * twice. So the insert branch passes its value through {@code LAST_INSERT_ID(?)} as well,
 * and the affected-row count decides: 1 means the row was inserted and the block starts
 * at 0, 2 means it was updated, 0 that the second was evicted.
 */
final class MySqlStatements extends Statements {

	@Override
	<E extends Exception> @Nullable SqlReservation reserve(SqlSession<E> session, RegistryTables tables, long timestamp,
			long blockSize, boolean guarded) throws E {
		String sql = "INSERT INTO " + tables.allocations() + " (ts, next_seq) "
				+ mySqlRowSource(tables, guarded, "LAST_INSERT_ID(?)")
				+ "ON DUPLICATE KEY UPDATE next_seq = LAST_INSERT_ID(next_seq + ?)";
		long affected = session.update(sql, upsertParameters(guarded, timestamp, blockSize));
		if (affected == 0) {
			return null;
		}
		if (affected != 1 && affected != 2) {
			throw new IllegalStateException(
					"The reservation statement affected " + affected + " rows; expected 0, 1 or 2");
		}
		@Nullable Object @Nullable [] row = session.queryRow("SELECT LAST_INSERT_ID(), UNIX_TIMESTAMP(NOW(6))");
		if (row == null) {
			throw new IllegalStateException("SELECT LAST_INSERT_ID() returned no row");
		}
		long start = (affected == 1) ? 0 : longValue(row[0]) - blockSize;
		return new SqlReservation(start, seconds(decimal(row[1])));
	}

	@Override
	<E extends Exception> @Nullable String durabilityWarning(SqlSession<E> session) throws E {
		return innoDbDurabilityWarning(session);
	}

	/** Warns when InnoDB does not flush its log at every commit. */
	static <E extends Exception> @Nullable String innoDbDurabilityWarning(SqlSession<E> session) throws E {
		long setting = number(session, "SELECT @@innodb_flush_log_at_trx_commit");
		if (setting == 1) {
			return null;
		}
		return "innodb_flush_log_at_trx_commit is " + setting + ": a crash of the database server may lose "
				+ "the last second or so of committed reservations, and the registry would then hand those "
				+ "blocks out again (duplicate IDs); set it to 1";
	}

}
