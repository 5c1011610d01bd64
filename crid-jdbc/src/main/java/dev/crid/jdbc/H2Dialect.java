package dev.crid.jdbc;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * H2: one standard {@code MERGE} (update the row when it exists, else insert it) read back through
 * {@code FINAL TABLE}, so the block starts at the returned value minus the block size. H2 locks the row
 * for the update; two sessions racing to insert the same new row make one fail with a duplicate key,
 * which the registry retries.
 */
final class H2Dialect extends SqlDialect {

	H2Dialect() {
		super(JdbcDialect.H2);
	}

	@Override
	long allocate(Connection connection, String table, long timestamp, long blockSize, int timeoutSeconds)
			throws SQLException {
		String sql = "SELECT next_seq FROM FINAL TABLE (MERGE INTO " + table + " t "
				+ "USING (VALUES (CAST(? AS BIGINT), CAST(? AS BIGINT))) AS s (ts, n) ON t.ts = s.ts "
				+ "WHEN MATCHED THEN UPDATE SET next_seq = t.next_seq + s.n "
				+ "WHEN NOT MATCHED THEN INSERT (ts, next_seq) VALUES (s.ts, s.n))";
		return queryForLong(connection, sql, timeoutSeconds, timestamp, blockSize) - blockSize;
	}

}
