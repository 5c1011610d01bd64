package dev.crid.sql;

import org.jspecify.annotations.Nullable;

/**
 * Dialects that reserve in a short transaction of their own: first they lock the metadata
 * row against evictions until the transaction ends (an {@code UPDATE} that changes
 * nothing takes the row's write lock in every database) and check that the timestamp is
 * not below the eviction watermark; then they add the block.
 */
abstract class LockingStatements extends Statements {

	@Override
	final boolean autoCommit() {
		return false;
	}

	@Override
	final <E extends Exception> @Nullable SqlReservation reserve(SqlSession<E> session, RegistryTables tables,
			long timestamp, long blockSize, boolean guarded) throws E {
		if (guarded && !watermarkAllows(session, tables, timestamp)) {
			return null;
		}
		return add(session, tables.allocations(), timestamp, blockSize);
	}

	/**
	 * Locks the metadata row and returns whether the timestamp may be reserved in: the
	 * row exists and the timestamp is not below the eviction watermark.
	 */
	private static <E extends Exception> boolean watermarkAllows(SqlSession<E> session, RegistryTables tables,
			long timestamp) throws E {
		if (session.update("UPDATE " + tables.meta() + " SET evicted_before = evicted_before WHERE id = 1") != 1) {
			return false;
		}
		return timestamp >= number(session, "SELECT evicted_before FROM " + tables.meta() + " WHERE id = 1");
	}

	/**
	 * Adds the block to the row of the timestamp, creating the row when there is none, in
	 * the transaction that holds the lock.
	 */
	abstract <E extends Exception> SqlReservation add(SqlSession<E> session, String allocations, long timestamp,
			long blockSize) throws E;

}
