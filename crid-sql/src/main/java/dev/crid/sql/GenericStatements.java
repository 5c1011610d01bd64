package dev.crid.sql;

/**
 * Any other database, in plain SQL: in one short transaction, lock the metadata row and
 * check the eviction watermark, {@code UPDATE} the row (which locks it), read back the
 * new value, or {@code INSERT} the row when there is none. When two transactions insert
 * the same new row, the primary key makes one fail; the store rolls it back and tries
 * again, and the retry finds the row. Plain SQL has no portable way to read the clock, so
 * it reports none.
 */
final class GenericStatements extends LockingStatements {

	@Override
	<E extends Exception> SqlReservation add(SqlSession<E> session, String allocations, long timestamp, long blockSize)
			throws E {
		if (session.update("UPDATE " + allocations + " SET next_seq = next_seq + ? WHERE ts = ?", blockSize,
				timestamp) == 1) {
			return new SqlReservation(
					number(session, "SELECT next_seq FROM " + allocations + " WHERE ts = ?", timestamp) - blockSize,
					null);
		}
		session.update("INSERT INTO " + allocations + " (ts, next_seq) VALUES (?, ?)", timestamp, blockSize);
		return new SqlReservation(0, null);
	}

}
