package dev.crid.sql;

import org.jspecify.annotations.Nullable;

/**
 * Where a registry module runs the shared SQL: each call gets a {@link SqlSession} of its
 * own (a connection outside any transaction of the application's), bounded by the
 * registry's timeout, and turns every failure into the registry's own exception: the
 * driver's failures, a {@link RefusalException} (not retryable) and any other
 * {@link RuntimeException}.
 *
 * @param <E> the exception the module's driver throws
 */
public interface SqlSessions<E extends Exception> {

	/**
	 * Runs the work on a session of its own.
	 * @param <T> the work's result
	 * @param task what the work does, for messages: "reserve 10 sequence numbers of ..."
	 * @param work the work
	 * @return the work's result
	 * @throws RuntimeException the registry's exception for any failure
	 */
	<T> @Nullable T run(String task, Work<T, E> work);

	/**
	 * Work on one session.
	 *
	 * @param <T> the result
	 * @param <E> the exception the driver throws
	 */
	@FunctionalInterface
	interface Work<T, E extends Exception> {

		/**
		 * Does the work.
		 * @param session the session
		 * @return the result
		 * @throws E when the database or the driver fails
		 */
		@Nullable T run(SqlSession<E> session) throws E;

	}

}
