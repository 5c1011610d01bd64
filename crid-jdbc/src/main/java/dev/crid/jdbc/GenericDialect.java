package dev.crid.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

import org.jspecify.annotations.Nullable;

import dev.crid.Registry;

/**
 * Any other JDBC database, in plain SQL: in one short transaction, lock the metadata row
 * and check the eviction watermark, {@code UPDATE} the row (which locks it), read back
 * the new value, or {@code INSERT} the row when there is none. When two transactions
 * insert the same new row, the primary key makes one fail; the registry rolls it back and
 * tries again, and the retry finds the row. Plain SQL has no portable way to read the
 * clock, so it reports none.
 */
final class GenericDialect extends SqlDialect {

	GenericDialect() {
		super(JdbcDialect.GENERIC);
	}

	@Override
	boolean autoCommit() {
		return false;
	}

	@Override
	Registry.@Nullable Reservation allocate(Connection connection, RegistryTables tables, long timestamp,
			long blockSize, boolean guarded, int timeoutSeconds) throws SQLException {
		if (guarded && !lockWatermarkAllowing(connection, tables, timestamp, timeoutSeconds)) {
			return null;
		}
		String table = tables.allocations();
		try (PreparedStatement update = prepare(connection,
				"UPDATE " + table + " SET next_seq = next_seq + ? WHERE ts = ?", timeoutSeconds, blockSize,
				timestamp)) {
			if (update.executeUpdate() == 1) {
				return new Registry.Reservation(queryForLong(connection,
						"SELECT next_seq FROM " + table + " WHERE ts = ?", timeoutSeconds, timestamp) - blockSize,
						null);
			}
		}
		try (PreparedStatement insert = prepare(connection, "INSERT INTO " + table + " (ts, next_seq) VALUES (?, ?)",
				timeoutSeconds, timestamp, blockSize)) {
			insert.executeUpdate();
			return new Registry.Reservation(0, null);
		}
	}

}
