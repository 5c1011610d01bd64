package dev.crid.sql;

import org.jspecify.annotations.Nullable;

/**
 * The SQL on the metadata table that only crid for Java reads: its one row (id 1),
 * holding the eviction watermark (every second below it was evicted, and reservations for
 * it are refused) and the layout the registry was first used with. Each method runs its
 * statements on the session it is given, in auto-commit mode.
 */
final class RegistryMetadata {

	/**
	 * Seconds of rows one eviction statement deletes at most, so no statement holds locks
	 * for long.
	 */
	private static final long SECONDS_PER_DELETE = 3_600;

	private final RegistryTables tables;

	RegistryMetadata(RegistryTables tables) {
		this.tables = tables;
	}

	/**
	 * Adds the row unless it is there. It must exist before any reservation or eviction:
	 * the lock on it is what orders them.
	 */
	<E extends Exception> void ensureRow(SqlSession<E> session) throws E {
		if (watermark(session) != null) {
			return;
		}
		try {
			session.update("INSERT INTO " + this.tables.meta() + " (id, evicted_before) VALUES (1, 0)");
		}
		catch (Exception ex) {
			// Another node added it meanwhile.
			if (watermark(session) == null) {
				throw ex;
			}
		}
	}

	/** Returns the eviction watermark, or {@code null} when the row is missing. */
	<E extends Exception> @Nullable Long watermark(SqlSession<E> session) throws E {
		@Nullable Object @Nullable [] row = session
			.queryRow("SELECT evicted_before FROM " + this.tables.meta() + " WHERE id = 1");
		return (row != null) ? Statements.longValue(row[0]) : null;
	}

	/**
	 * Records the layout unless one is recorded already, and returns the one recorded.
	 */
	<E extends Exception> TableLayout claimLayout(SqlSession<E> session, TableLayout layout) throws E {
		session.update(
				"UPDATE " + this.tables.meta() + " SET epoch_seconds = ?, timestamp_bits = ?, sequence_bits = ? "
						+ "WHERE id = 1 AND epoch_seconds IS NULL",
				layout.epochSeconds(), layout.timestampBits(), layout.sequenceBits());
		@Nullable Object @Nullable [] row = session.queryRow(
				"SELECT epoch_seconds, timestamp_bits, sequence_bits FROM " + this.tables.meta() + " WHERE id = 1");
		if (row == null) {
			throw new IllegalStateException("The row of " + this.tables.meta() + " is missing");
		}
		return new TableLayout(Statements.longValue(row[0]), (int) Statements.longValue(row[1]),
				(int) Statements.longValue(row[2]));
	}

	/**
	 * Raises the watermark to {@code before} unless it is that high already. Once this
	 * commits, no reservation for a second below it can: each reads the watermark under a
	 * lock this update waits for.
	 */
	<E extends Exception> void raiseWatermark(SqlSession<E> session, long before) throws E {
		session.update("UPDATE " + this.tables.meta() + " SET evicted_before = ? WHERE id = 1 AND evicted_before < ?",
				before, before);
	}

	/**
	 * Deletes the allocation rows of seconds below {@code before}, a bounded range of
	 * seconds per statement, until none is left or the {@link System#nanoTime()}
	 * {@code deadline} has passed.
	 * @return the rows deleted, and whether every row below {@code before} is gone
	 */
	<E extends Exception> Deleted deleteBefore(SqlSession<E> session, long before, long deadline) throws E {
		long deleted = 0;
		while (true) {
			@Nullable Object @Nullable [] row = session
				.queryRow("SELECT MIN(ts) FROM " + this.tables.allocations() + " WHERE ts < ?", before);
			if (row == null || row[0] == null) {
				return new Deleted(deleted, true);
			}
			if (System.nanoTime() - deadline > 0) {
				return new Deleted(deleted, false);
			}
			long oldest = Statements.longValue(row[0]);
			long upTo = (oldest > before - SECONDS_PER_DELETE) ? before : oldest + SECONDS_PER_DELETE;
			deleted += session.update("DELETE FROM " + this.tables.allocations() + " WHERE ts < ?", upTo);
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
