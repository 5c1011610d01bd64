package dev.crid.sql;

/**
 * H2: in one short transaction, lock the metadata row and check the eviction watermark,
 * then one standard {@code MERGE} (update the row when it exists, else insert it) read
 * back through {@code FINAL TABLE}, so the block starts at the returned value minus the
 * block size. Two sessions racing to insert the same new row make one fail with a
 * duplicate key, which the store tries again. H2 runs in the application's own process,
 * on its clock, so it reports none.
 */
final class H2Statements extends LockingStatements {

	@Override
	<E extends Exception> SqlReservation add(SqlSession<E> session, String allocations, long timestamp, long blockSize)
			throws E {
		String sql = "SELECT next_seq FROM FINAL TABLE (MERGE INTO " + allocations + " t "
				+ "USING (VALUES (CAST(? AS BIGINT), CAST(? AS BIGINT))) AS s (ts, n) ON t.ts = s.ts "
				+ "WHEN MATCHED THEN UPDATE SET next_seq = t.next_seq + s.n "
				+ "WHEN NOT MATCHED THEN INSERT (ts, next_seq) VALUES (s.ts, s.n))";
		return new SqlReservation(number(session, sql, timestamp, blockSize) - blockSize, null);
	}

}
