package dev.crid.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;

import org.jspecify.annotations.Nullable;

import dev.crid.CridLayout;

/**
 * The SQL on the metadata table that only crid for Java reads: its one row (id 1),
 * holding the eviction watermark (every second below it was evicted, and reservations for
 * it are refused) and the layout the registry was first used with. Each method runs its
 * statements on the connection it is given, in auto-commit mode.
 */
final class RegistryMetadata {

	/**
	 * Seconds of rows one eviction statement deletes at most, so no statement holds locks
	 * for long.
	 */
	private static final long SECONDS_PER_DELETE = 3_600;

	private final RegistryTables tables;

	private final int timeoutSeconds;

	RegistryMetadata(RegistryTables tables, int timeoutSeconds) {
		this.tables = tables;
		this.timeoutSeconds = timeoutSeconds;
	}

	/**
	 * Adds the row unless it is there. It must exist before any reservation or eviction:
	 * the lock on it is what orders them.
	 */
	void ensureRow(Connection connection) throws SQLException {
		if (watermark(connection) != null) {
			return;
		}
		try (PreparedStatement insert = prepare(connection,
				"INSERT INTO " + this.tables.meta() + " (id, evicted_before) VALUES (1, 0)")) {
			insert.executeUpdate();
		}
		catch (SQLException ex) {
			// Another node added it meanwhile.
			if (watermark(connection) == null) {
				throw ex;
			}
		}
	}

	/** Returns the eviction watermark, or {@code null} when the row is missing. */
	@Nullable Long watermark(Connection connection) throws SQLException {
		try (PreparedStatement select = prepare(connection,
				"SELECT evicted_before FROM " + this.tables.meta() + " WHERE id = 1");
				ResultSet result = select.executeQuery()) {
			return result.next() ? result.getLong(1) : null;
		}
	}

	/**
	 * Records the layout unless one is recorded already, and returns the one recorded.
	 */
	CridLayout claimLayout(Connection connection, CridLayout layout) throws SQLException {
		try (PreparedStatement claim = prepare(connection, "UPDATE " + this.tables.meta()
				+ " SET epoch_seconds = ?, timestamp_bits = ?, sequence_bits = ? WHERE id = 1 AND epoch_seconds IS NULL",
				layout.epoch().getEpochSecond(), layout.timestampBits(), layout.sequenceBits())) {
			claim.executeUpdate();
		}
		try (PreparedStatement select = prepare(connection,
				"SELECT epoch_seconds, timestamp_bits, sequence_bits FROM " + this.tables.meta() + " WHERE id = 1");
				ResultSet result = select.executeQuery()) {
			if (!result.next()) {
				throw new SQLException("The row of " + this.tables.meta() + " is missing");
			}
			return CridLayout.of(Instant.ofEpochSecond(result.getLong(1)), result.getInt(2), result.getInt(3));
		}
	}

	/**
	 * Raises the watermark to {@code before} unless it is that high already. Once this
	 * commits, no reservation for a second below it can: each reads the watermark under a
	 * lock this update waits for.
	 */
	void raiseWatermark(Connection connection, long before) throws SQLException {
		try (PreparedStatement raise = prepare(connection,
				"UPDATE " + this.tables.meta() + " SET evicted_before = ? WHERE id = 1 AND evicted_before < ?", before,
				before)) {
			raise.executeUpdate();
		}
	}

	private PreparedStatement prepare(Connection connection, String sql, long... parameters) throws SQLException {
		return SqlDialect.prepare(connection, sql, this.timeoutSeconds, parameters);
	}

	/**
	 * Deletes the allocation rows of seconds below {@code before}, a bounded range of
	 * seconds per statement, until none is left or the {@link System#nanoTime()}
	 * {@code deadline} has passed.
	 * @return the rows deleted, and whether every row below {@code before} is gone
	 */
	Deleted deleteBefore(Connection connection, long before, long deadline) throws SQLException {
		long deleted = 0;
		while (true) {
			Long oldest = oldestBefore(connection, before);
			if (oldest == null) {
				return new Deleted(deleted, true);
			}
			if (System.nanoTime() - deadline > 0) {
				return new Deleted(deleted, false);
			}
			long upTo = (oldest > before - SECONDS_PER_DELETE) ? before : oldest + SECONDS_PER_DELETE;
			try (PreparedStatement delete = prepare(connection,
					"DELETE FROM " + this.tables.allocations() + " WHERE ts < ?", upTo)) {
				deleted += delete.executeUpdate();
			}
		}
	}

	private @Nullable Long oldestBefore(Connection connection, long before) throws SQLException {
		try (PreparedStatement select = prepare(connection,
				"SELECT MIN(ts) FROM " + this.tables.allocations() + " WHERE ts < ?", before);
				ResultSet result = select.executeQuery()) {
			result.next();
			long oldest = result.getLong(1);
			return result.wasNull() ? null : oldest;
		}
	}

	/**
	 * What an eviction deleted.
	 *
	 * @param rows the rows deleted
	 * @param complete whether every row below the watermark is gone
	 */
	record Deleted(long rows, boolean complete) {
	}

}
