package dev.crid.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import org.jspecify.annotations.Nullable;

import dev.crid.Registry;

/**
 * MariaDB 10.5 and later: one atomic
 * {@code INSERT ... SELECT ... ON DUPLICATE KEY UPDATE ... RETURNING}, which returns the
 * row as stored by either branch, so the block starts at the returned value minus the
 * block size. The {@code SELECT} reads the eviction watermark with
 * {@code LOCK IN SHARE MODE}, so an eviction that raises it waits for running allocations
 * and they for it, whatever the isolation level. InnoDB's row lock serialises concurrent
 * allocations of one second; {@code NOW(6)} tells the database's clock. One round trip.
 *
 * <p>
 * Two cases reserve with the MYSQL dialect's {@code LAST_INSERT_ID(expr)} statement
 * instead, which MariaDB runs with the same meaning, in two round trips:
 * <ul>
 * <li>Through MySQL Connector/J, which refuses {@code executeQuery()} for every statement
 * that begins with {@code INSERT} ("cannot issue statements that do not produce result
 * sets"). (Connector/J's {@code execute()} happens to return the rows of
 * {@code RETURNING}, but that is nothing it promises; {@code LAST_INSERT_ID(expr)} is
 * what MySQL's own driver is made for.)</li>
 * <li>On a member of a Galera cluster ({@code wsrep_on} is {@code ON}), where every
 * member takes writes and a transaction is certified against the others' at commit. When
 * an auto-committed statement loses a certification conflict, the member runs it again
 * ({@code wsrep_retry_autocommit}, 1 by default), but the rows of {@code RETURNING} have
 * already gone to the client from the run that was rolled back: a block that another
 * member handed out too (measured: 26 overlapping blocks in 2,319 within 5 s, on three
 * members). An update's outcome (the affected-row count, and {@code LAST_INSERT_ID()}
 * after it) reaches the client only once the statement has committed, from the run that
 * committed; with {@code wsrep_retry_autocommit} at 0, a lost conflict is a deadlock
 * error, which the registry retries. Either way the block read is the block
 * committed.</li>
 * </ul>
 */
final class MariaDbDialect extends SqlDialect {

	private static final String THROUGH_CONNECTOR_J = "MySQL Connector/J refuses INSERT ... RETURNING as a query, "
			+ "so it reserves with the MYSQL dialect's LAST_INSERT_ID(expr) statement, in two round trips";

	private static final String ON_GALERA = "the server is a Galera cluster member (wsrep_on), which may run an "
			+ "auto-committed statement again after a certification conflict when the rows of RETURNING have gone to "
			+ "the client already, so it reserves with the MYSQL dialect's LAST_INSERT_ID(expr) statement, whose "
			+ "outcome the server reports only once it has committed, in two round trips";

	/**
	 * Why it reserves with {@code LAST_INSERT_ID(expr)}, for the log; {@code null} when
	 * it reserves with {@code RETURNING}.
	 */
	private final @Nullable String lastInsertIdReason;

	/** The dialect that reserves with {@code RETURNING}. */
	MariaDbDialect() {
		this(null);
	}

	private MariaDbDialect(@Nullable String lastInsertIdReason) {
		super(JdbcDialect.MARIADB);
		this.lastInsertIdReason = lastInsertIdReason;
	}

	/**
	 * Returns the dialect for the connection's driver and server: {@code RETURNING} where
	 * it is safe, else {@code LAST_INSERT_ID(expr)}.
	 */
	static MariaDbDialect of(Connection connection) throws SQLException {
		if (DialectDetector.isMySqlConnectorJ(connection.getMetaData())) {
			return new MariaDbDialect(THROUGH_CONNECTOR_J);
		}
		return isGaleraMember(connection) ? new MariaDbDialect(ON_GALERA) : new MariaDbDialect();
	}

	/**
	 * Whether the server replicates with Galera. A server built without it has no
	 * {@code wsrep_on} variable at all, so the query returns no row rather than failing.
	 */
	static boolean isGaleraMember(Connection connection) throws SQLException {
		try (Statement statement = connection.createStatement();
				ResultSet result = statement.executeQuery("SHOW VARIABLES LIKE 'wsrep_on'")) {
			return result.next() && "ON".equalsIgnoreCase(result.getString(2));
		}
	}

	@Override
	@Nullable String statementChoice() {
		return this.lastInsertIdReason;
	}

	@Override
	Registry.@Nullable Reservation allocate(Connection connection, RegistryTables tables, long timestamp,
			long blockSize, boolean guarded, int timeoutSeconds) throws SQLException {
		if (this.lastInsertIdReason != null) {
			return MySqlDialect.allocateThroughLastInsertId(connection, tables, timestamp, blockSize, guarded,
					timeoutSeconds);
		}
		String sql = "INSERT INTO " + tables.allocations() + " (ts, next_seq) " + mySqlRowSource(tables, guarded, "?")
				+ "ON DUPLICATE KEY UPDATE next_seq = next_seq + ? RETURNING next_seq, UNIX_TIMESTAMP(NOW(6))";
		try (PreparedStatement statement = prepare(connection, sql, timeoutSeconds,
				upsertParameters(guarded, timestamp, blockSize)); ResultSet result = statement.executeQuery()) {
			return result.next()
					? new Registry.Reservation(result.getLong(1) - blockSize, seconds(result.getBigDecimal(2))) : null;
		}
	}

	@Override
	@Nullable String durabilityWarning(Connection connection) throws SQLException {
		return MySqlDialect.innoDbDurabilityWarning(connection);
	}

}
