package dev.crid.jdbc;

import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.dao.InvalidDataAccessResourceUsageException;
import org.springframework.dao.PermissionDeniedDataAccessException;
import org.springframework.jdbc.support.SQLExceptionSubclassTranslator;
import org.springframework.jdbc.support.SQLExceptionTranslator;

/**
 * Tells the registry's failures that asking again may mend from those only a change of
 * schema, rights or configuration can, by the exception's type and SQLState, never by its
 * message: Spring's translation ({@link SQLExceptionSubclassTranslator}, with its
 * SQLState fallback) first, corrected where it takes a lasting refusal for a passing one.
 *
 * <p>
 * Never retryable: {@link InvalidDataAccessResourceUsageException} (Spring's
 * {@link org.springframework.jdbc.BadSqlGrammarException} among them: a syntax error, a
 * missing table or column, SQLState class {@code 42}),
 * {@link PermissionDeniedDataAccessException} (a refused login, class {@code 28}, or a
 * refused privilege: PostgreSQL's {@code 42501}, the MySQL family's error codes 1044,
 * 1142, 1143 and 1227) and {@link InvalidDataAccessApiUsageException} (a statement or
 * call the driver refuses: class {@code 0A}, "feature not supported", and the ODBC state
 * {@code S1009} / {@code HY009}, "invalid argument value", which MySQL Connector/J gives
 * for a statement {@code executeQuery()} cannot run, and which Spring's SQLState fallback
 * would take for a transient failure). Everything else stays retryable: lost or refused
 * connections, timeouts, deadlocks, serialisation failures, a pool without a free
 * connection. A failure the driver itself types as transient or recoverable
 * ({@link SQLTransientException}, {@link SQLRecoverableException}) is taken at its word:
 * a pool's timeout carries the SQLState of the last failed login, but it is the pool that
 * timed out.
 */
final class RegistryFailures {

	/**
	 * The MySQL family's "access denied" error codes: to a database, a table, a column,
	 * an operation.
	 */
	private static final Set<Integer> MYSQL_ACCESS_DENIED_CODES = Set.of(1044, 1142, 1143, 1227);

	private static final SQLExceptionTranslator springTranslator = new SQLExceptionSubclassTranslator();

	private RegistryFailures() {
	}

	/**
	 * Returns Spring's exception for the failure, with crid's corrections, or
	 * {@code null} when neither knows it.
	 */
	static @Nullable DataAccessException translate(String task, SQLException ex) {
		if (!(ex instanceof SQLTransientException) && !(ex instanceof SQLRecoverableException)) {
			String state = (ex.getSQLState() != null) ? ex.getSQLState() : "";
			if (state.startsWith("28") || state.equals("42501")
					|| (state.startsWith("42") && MYSQL_ACCESS_DENIED_CODES.contains(ex.getErrorCode()))) {
				return new PermissionDeniedDataAccessException(task + ": " + ex.getMessage(), ex);
			}
			if (state.startsWith("0A") || state.equals("S1009") || state.equals("HY009")) {
				return new InvalidDataAccessApiUsageException(task + ": " + ex.getMessage(), ex);
			}
		}
		return springTranslator.translate(task, null, ex);
	}

	/**
	 * Whether asking the database again may succeed after a failure translated as given.
	 */
	static boolean isRetryable(@Nullable DataAccessException translated) {
		return !(translated instanceof InvalidDataAccessResourceUsageException
				|| translated instanceof PermissionDeniedDataAccessException
				|| translated instanceof InvalidDataAccessApiUsageException);
	}

}
