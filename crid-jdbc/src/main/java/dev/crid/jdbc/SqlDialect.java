package dev.crid.jdbc;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Locale;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import dev.crid.Registry;

/**
 * The SQL of one {@link JdbcDialect}: how to reserve a block atomically, and how the
 * database reports the errors the registry must recognise. One subclass per dialect,
 * chosen by {@link #of(JdbcDialect)}.
 *
 * <p>
 * Every reservation reads the eviction watermark of the metadata table
 * ({@link RegistryTables#meta()}) under a lock that an eviction's raising of the
 * watermark must wait for, and reserves only when its second is not below it: once an
 * eviction has raised the watermark, no reservation for an evicted second can commit,
 * whatever the node's clock says.
 *
 * <p>
 * On a MariaDB Galera cluster that lock holds on one member only, and a reservation on
 * another member that read the watermark before the raise reached it may still commit
 * after it. It hands out no number twice: an eviction deletes the row of every second it
 * evicts, and a reservation writes that second's row, so certification, which lets only
 * the first of two transactions that write one row commit, never commits both an
 * eviction's delete and a reservation that ran on a member that had not applied it yet;
 * the loser is rolled back (a reservation is run again, and then reads the raised
 * watermark). What a late reservation hands out continues the row, and once the row is
 * gone, every member has the raised watermark and refuses the second.
 */
abstract class SqlDialect {

	/**
	 * SQL states that mean "no such table": PostgreSQL's, the ODBC/X/Open one most
	 * databases use, H2's two variants (with suggestions, in an empty database), Derby's
	 * and SQL Server's.
	 */
	private static final Set<String> MISSING_TABLE_STATES = Set.of("42P01", "42S02", "42S03", "42S04", "42X05",
			"S0002");

	private final JdbcDialect dialect;

	SqlDialect(JdbcDialect dialect) {
		this.dialect = dialect;
	}

	/**
	 * Returns the SQL of the dialect for the connection's driver and server: the
	 * statements a dialect runs may depend on what the driver accepts and how the server
	 * replicates, not only on the database.
	 */
	static SqlDialect of(JdbcDialect dialect, Connection connection) throws SQLException {
		return switch (dialect) {
			case MARIADB -> MariaDbDialect.of(connection);
			default -> of(dialect);
		};
	}

	/** Returns the SQL of the dialect for any driver. */
	static SqlDialect of(JdbcDialect dialect) {
		return switch (dialect) {
			case POSTGRESQL -> new PostgreSqlDialect();
			case MARIADB -> new MariaDbDialect();
			case MYSQL -> new MySqlDialect();
			case H2 -> new H2Dialect();
			case GENERIC -> new GenericDialect();
		};
	}

	final JdbcDialect dialect() {
		return this.dialect;
	}

	/** The classpath location of this dialect's schema script. */
	final String schemaScript() {
		return schemaScript(this.dialect);
	}

	/** The classpath location of a dialect's schema script. */
	static String schemaScript(JdbcDialect dialect) {
		return "dev/crid/jdbc/schema-" + dialect.name().toLowerCase(Locale.ROOT) + ".sql";
	}

	/**
	 * Says, for the log, how this dialect's statements differ from its usual ones because
	 * of the driver, or returns {@code null} when they do not.
	 */
	@Nullable String statementChoice() {
		return null;
	}

	/**
	 * Whether {@link #allocate} is one statement that the database commits by itself
	 * (auto-commit); when not, the registry runs it in a transaction of its own and
	 * commits it.
	 */
	boolean autoCommit() {
		return true;
	}

	/**
	 * Atomically adds {@code blockSize} to the row of {@code timestamp} (creating it at
	 * {@code blockSize}) and returns the value it had before (0 for a new row), with the
	 * database's clock if the dialect reads it in the same round trip; or returns
	 * {@code null}, reserving nothing, when the timestamp is below the eviction watermark
	 * or the metadata row is missing.
	 * @param tables the validated table names
	 * @param guarded whether to read the eviction watermark in the metadata table;
	 * {@code false} where the registry runs without that table (one the Go crid made,
	 * which it may not add), as the Go crid does
	 * @param timeoutSeconds the query timeout for each statement
	 */
	abstract Registry.@Nullable Reservation allocate(Connection connection, RegistryTables tables, long timestamp,
			long blockSize, boolean guarded, int timeoutSeconds) throws SQLException;

	/**
	 * The MySQL family's source of the inserted row: guarded, a {@code SELECT} of the
	 * metadata row that reads the eviction watermark with {@code LOCK IN SHARE MODE}, so
	 * an eviction that raises it waits for running allocations and they for it
	 * (parameters: the timestamp, the value, the timestamp); else plain {@code VALUES}
	 * (the timestamp, the value).
	 * @param value the SQL of the inserted {@code next_seq}, with its one parameter
	 */
	static String mySqlRowSource(RegistryTables tables, boolean guarded, String value) {
		return guarded ? "SELECT ?, " + value + " FROM " + tables.meta() + " WHERE id = 1 AND evicted_before <= ? "
				+ "LOCK IN SHARE MODE " : "VALUES (?, " + value + ") ";
	}

	/**
	 * The parameters of an upsert whose row source reads the watermark when guarded (the
	 * timestamp, the value, the timestamp to compare) and whose update adds the block
	 * size: the same in every dialect that reserves in one statement.
	 */
	static long[] upsertParameters(boolean guarded, long timestamp, long blockSize) {
		return guarded ? new long[] { timestamp, blockSize, timestamp, blockSize }
				: new long[] { timestamp, blockSize, blockSize };
	}

	/**
	 * Returns a warning when the database is set up so that a crash may lose committed
	 * allocations, or {@code null}.
	 */
	@Nullable String durabilityWarning(Connection connection) throws SQLException {
		return null;
	}

	/** Whether the failure says that a table does not exist. */
	boolean isMissingTable(SQLException ex) {
		for (SQLException current = ex; current != null; current = current.getNextException()) {
			if (current.getSQLState() != null && MISSING_TABLE_STATES.contains(current.getSQLState())) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Whether a retry resolves the failure: a primary key violation (a concurrent insert
	 * of the same new row won) or a deadlock or serialisation failure, after which the
	 * database has rolled back.
	 */
	boolean isRetryable(SQLException ex) {
		String state = ex.getSQLState();
		return state != null && (state.startsWith("23") || state.startsWith("40"));
	}

	/**
	 * For dialects that run in a transaction: locks the metadata row against evictions
	 * until the transaction ends, and returns whether the timestamp may be reserved in:
	 * the row exists and the timestamp is not below the eviction watermark. An
	 * {@code UPDATE} that changes nothing takes the row's write lock in every database.
	 */
	static boolean lockWatermarkAllowing(Connection connection, RegistryTables tables, long timestamp,
			int timeoutSeconds) throws SQLException {
		try (PreparedStatement lock = prepare(connection,
				"UPDATE " + tables.meta() + " SET evicted_before = evicted_before WHERE id = 1", timeoutSeconds)) {
			if (lock.executeUpdate() != 1) {
				return false;
			}
		}
		return timestamp >= queryForLong(connection, "SELECT evicted_before FROM " + tables.meta() + " WHERE id = 1",
				timeoutSeconds);
	}

	/** Converts microseconds since 1970 to an instant. */
	static Instant micros(long micros) {
		return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000), Math.floorMod(micros, 1_000_000) * 1_000L);
	}

	/** Converts seconds since 1970, with a fraction, to an instant. */
	static Instant seconds(BigDecimal seconds) {
		return micros(seconds.movePointRight(6).longValue());
	}

	/**
	 * Runs a query that returns one number, with the given parameters and query timeout
	 * (0 for none), and returns the number.
	 */
	static long queryForLong(Connection connection, String sql, int timeoutSeconds, long... parameters)
			throws SQLException {
		try (PreparedStatement statement = prepare(connection, sql, timeoutSeconds, parameters);
				ResultSet result = statement.executeQuery()) {
			if (!result.next()) {
				throw new SQLException("The statement returned no row: " + sql);
			}
			return result.getLong(1);
		}
	}

	/**
	 * Prepares a statement with the given query timeout (0 for none) and binds the
	 * parameters.
	 */
	static PreparedStatement prepare(Connection connection, String sql, int timeoutSeconds, long... parameters)
			throws SQLException {
		PreparedStatement statement = connection.prepareStatement(sql);
		try {
			statement.setQueryTimeout(timeoutSeconds);
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

}
