package dev.crid.sql;

import org.jspecify.annotations.Nullable;

/**
 * One connection's statements, as a registry module runs them: the one thing the shared
 * SQL needs from a driver. {@code crid-jdbc} implements it on a JDBC connection,
 * {@code crid-r2dbc} on an R2DBC one; each binds the parameters in order (as
 * {@code BIGINT}s), applies its own timeouts, and throws its driver's exception.
 * Statements run in auto-commit mode, except between {@link #begin()} and
 * {@link #commit()} or {@link #rollback(Exception)}.
 *
 * @param <E> the exception the driver throws ({@link RuntimeException} for a driver whose
 * exceptions are unchecked)
 */
public interface SqlSession<E extends Exception> {

	/**
	 * Returns the statement family this session's database and driver run.
	 * @return the dialect
	 */
	SqlDialect dialect();

	/**
	 * Runs a query and returns the columns of its first row.
	 * @param sql the query, with a {@code ?} for each parameter
	 * @param parameters the parameters, in order
	 * @return the first row's column values (SQL {@code NULL} as {@code null}), or
	 * {@code null} when the query returned no row
	 * @throws E when the database or the driver fails
	 */
	@Nullable Object @Nullable [] queryRow(String sql, long... parameters) throws E;

	/**
	 * Runs a statement that changes rows, or a DDL statement.
	 * @param sql the statement, with a {@code ?} for each parameter
	 * @param parameters the parameters, in order
	 * @return the rows changed, as the database counts them
	 * @throws E when the database or the driver fails
	 */
	long update(String sql, long... parameters) throws E;

	/**
	 * Starts a transaction: the statements that follow commit together.
	 * @throws E when the database or the driver fails
	 */
	void begin() throws E;

	/**
	 * Commits the transaction and returns to auto-commit mode.
	 * @throws E when the database or the driver fails
	 */
	void commit() throws E;

	/**
	 * Rolls the transaction back and returns to auto-commit mode; a failure to do so is
	 * added to {@code failure} as a suppressed exception.
	 * @param failure the failure that ends the transaction
	 */
	void rollback(Exception failure);

	/**
	 * Tells whether a failure says that a table does not exist ({@link SqlStates}).
	 * @param failure what a statement threw
	 * @return whether a table is missing
	 */
	boolean isMissingTable(Exception failure);

	/**
	 * Tells whether a failure is a conflict with a concurrent transaction that the
	 * database rolled back, so that the same work may succeed when tried again: a
	 * duplicate key on a new row, a deadlock, a serialisation failure
	 * ({@link SqlStates}).
	 * @param failure what a statement threw
	 * @return whether the work may be tried again
	 */
	boolean isConflict(Exception failure);

	/**
	 * Tells whether the operation this session serves has used up its time.
	 * @return whether the deadline has passed
	 */
	boolean pastDeadline();

}
