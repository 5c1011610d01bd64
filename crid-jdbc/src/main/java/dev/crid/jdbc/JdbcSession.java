package dev.crid.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

import org.jspecify.annotations.Nullable;

import dev.crid.sql.SqlDialect;
import dev.crid.sql.SqlSession;
import dev.crid.sql.SqlStates;

/**
 * The shared SQL's statements on one JDBC connection: each prepared with the registry's
 * query timeout, its parameters bound as {@code BIGINT}s. The connection is in
 * auto-commit mode outside {@link #begin()} and {@link #commit()}.
 */
final class JdbcSession implements SqlSession<SQLException> {

	private final Connection connection;

	private final SqlDialect dialect;

	private final int timeoutSeconds;

	/** The operation's deadline, by {@link System#nanoTime()}. */
	private final long deadline;

	JdbcSession(Connection connection, SqlDialect dialect, int timeoutSeconds, long deadline) {
		this.connection = connection;
		this.dialect = dialect;
		this.timeoutSeconds = timeoutSeconds;
		this.deadline = deadline;
	}

	@Override
	public SqlDialect dialect() {
		return this.dialect;
	}

	@Override
	public @Nullable Object @Nullable [] queryRow(String sql, long... parameters) throws SQLException {
		try (PreparedStatement statement = prepare(sql, parameters); ResultSet result = statement.executeQuery()) {
			if (!result.next()) {
				return null;
			}
			@Nullable Object[] row = new Object[result.getMetaData().getColumnCount()];
			for (int i = 0; i < row.length; i++) {
				row[i] = result.getObject(i + 1);
			}
			return row;
		}
	}

	@Override
	public long update(String sql, long... parameters) throws SQLException {
		try (PreparedStatement statement = prepare(sql, parameters)) {
			return statement.executeUpdate();
		}
	}

	private PreparedStatement prepare(String sql, long[] parameters) throws SQLException {
		PreparedStatement statement = this.connection.prepareStatement(sql);
		try {
			statement.setQueryTimeout(this.timeoutSeconds);
			for (int i = 0; i < parameters.length; i++) {
				statement.setLong(i + 1, parameters[i]);
			}
			return statement;
		}
		catch (SQLException ex) {
			statement.close();
			throw ex;
		}
	}

	@Override
	public void begin() throws SQLException {
		this.connection.setAutoCommit(false);
	}

	@Override
	public void commit() throws SQLException {
		this.connection.commit();
		this.connection.setAutoCommit(true);
	}

	@Override
	public void rollback(Exception failure) {
		try {
			this.connection.rollback();
			this.connection.setAutoCommit(true);
		}
		catch (SQLException ex) {
			// A broken connection: the pool discards it, and the failure stands.
			failure.addSuppressed(ex);
		}
	}

	@Override
	public boolean isMissingTable(Exception failure) {
		return isMissingTableFailure(failure);
	}

	/** Whether the failure, or a failure chained to it, says a table does not exist. */
	static boolean isMissingTableFailure(Exception failure) {
		if (failure instanceof SQLException sql) {
			for (SQLException current = sql; current != null; current = current.getNextException()) {
				if (SqlStates.isMissingTable(current.getSQLState())) {
					return true;
				}
			}
		}
		return false;
	}

	@Override
	public boolean isConflict(Exception failure) {
		return failure instanceof SQLException sql && SqlStates.isConflict(sql.getSQLState());
	}

	@Override
	public boolean pastDeadline() {
		return System.nanoTime() - this.deadline >= 0;
	}

}
