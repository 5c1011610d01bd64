package dev.crid.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

import dev.crid.Registry;

/**
 * Any other JDBC database, in plain SQL: in one short transaction, lock the metadata row and check the
 * eviction watermark, {@code UPDATE} the row (which locks it), read back the new value, or {@code INSERT}
 * the row when there is none. When two transactions insert the same new row, the primary key makes one
 * fail; the registry rolls it back and tries again, and the retry finds the row. Plain SQL has no portable
 * way to read the clock, so it reports none.
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
	Registry.Reservation allocate(Connection connection, RegistryTables tables, long timestamp, long blockSize,
			int timeoutSeconds) throws SQLException {
		Long watermark = lockWatermark(connection, tables, timeoutSeconds);
		if (watermark == null || timestamp < watermark) {
			return null;
		}
		String table = tables.allocations();
		try (PreparedStatement update = connection
			.prepareStatement("UPDATE " + table + " SET next_seq = next_seq + ? WHERE ts = ?")) {
			update.setQueryTimeout(timeoutSeconds);
			update.setLong(1, blockSize);
			update.setLong(2, timestamp);
			if (update.executeUpdate() == 1) {
				return new Registry.Reservation(queryForLong(connection,
						"SELECT next_seq FROM " + table + " WHERE ts = ?", timeoutSeconds, timestamp) - blockSize, null);
			}
		}
		try (PreparedStatement insert = connection
			.prepareStatement("INSERT INTO " + table + " (ts, next_seq) VALUES (?, ?)")) {
			insert.setQueryTimeout(timeoutSeconds);
			insert.setLong(1, timestamp);
			insert.setLong(2, blockSize);
			insert.executeUpdate();
			return new Registry.Reservation(0, null);
		}
	}

}
