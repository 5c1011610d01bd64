package dev.crid.jdbc;

import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLInvalidAuthorizationSpecException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLSyntaxErrorException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransactionRollbackException;
import java.sql.SQLTransientConnectionException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.dao.PermissionDeniedDataAccessException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which failures the registry lets a node retry, by SQLState and exception type, for
 * states the real databases of the integration tests do not produce on demand (the
 * integration tests cover a missing table, a syntax error, a user without rights and a
 * statement MySQL Connector/J refuses on the real servers).
 */
class RegistryFailuresTest {

	@ParameterizedTest(name = "SQLState {0}, error code {1}: retryable {2}")
	@CsvSource({
			// Lasting: a syntax error, a missing table, a refused privilege, a refused
			// login, a refused call.
			"42601, 0, false", "42P01, 0, false", "42S02, 1146, false", "42000, 1064, false", "42501, 0, false",
			"42000, 1142, false", "28P01, 0, false", "28000, 1045, false", "0A000, 0, false", "S1009, 0, false",
			"HY009, 0, false",
			// Passing: connections, timeouts, deadlocks, serialisation, resources, a
			// read-only standby, unknown.
			"08001, 0, true", "08S01, 0, true", "08006, 0, true", "57014, 0, true", "57P01, 0, true", "40001, 0, true",
			"40P01, 1213, true", "HY000, 1205, true", "53300, 0, true", "25006, 0, true", "S1000, 0, true",
			"23505, 0, true", "'', 0, true" })
	void classifiesPlainFailuresBySqlState(String state, int code, boolean retryable) {
		SQLException failure = new SQLException("failure", state.isEmpty() ? null : state, code);
		assertThat(RegistryFailures.isRetryable(RegistryFailures.translate("reserve", failure))).isEqualTo(retryable);
	}

	@Test
	void classifiesTypedFailuresByTheirType() {
		assertThat(retryable(new SQLSyntaxErrorException("syntax", "42000", 1064))).isFalse();
		assertThat(retryable(new SQLInvalidAuthorizationSpecException("login", "28000", 1045))).isFalse();
		assertThat(retryable(new SQLFeatureNotSupportedException("feature", "0A000"))).isFalse();
		assertThat(retryable(new SQLNonTransientConnectionException("refused", "08000"))).isTrue();
		assertThat(retryable(new SQLTimeoutException("timeout", "70100"))).isTrue();
		assertThat(retryable(new SQLTransactionRollbackException("deadlock", "40001", 1213))).isTrue();
	}

	@Test
	void takesAPoolsTimeoutForPassingWhateverStateItCarries() {
		// HikariCP gives its timeout the SQLState of the last failed attempt to connect.
		assertThat(retryable(new SQLTransientConnectionException("Connection is not available", "28000"))).isTrue();
	}

	@Test
	void namesTheKindOfLastingFailureAndKeepsTheDriversException() {
		SQLException refusedCall = new SQLException(
				"Statement.executeQuery() cannot issue statements that do not " + "produce result sets.", "S1009");
		assertThat(RegistryFailures.translate("reserve", refusedCall))
			.isInstanceOf(InvalidDataAccessApiUsageException.class)
			.hasCause(refusedCall);
		SQLException denied = new SQLException("SELECT command denied", "42000", 1142);
		assertThat(RegistryFailures.translate("reserve", denied))
			.isInstanceOf(PermissionDeniedDataAccessException.class)
			.hasCause(denied);
	}

	private static boolean retryable(SQLException failure) {
		return RegistryFailures.isRetryable(RegistryFailures.translate("reserve", failure));
	}

}
