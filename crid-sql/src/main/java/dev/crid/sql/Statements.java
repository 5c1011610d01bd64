package dev.crid.sql;

import java.math.BigDecimal;
import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * How one {@link SqlDialect} reserves a block, run through a {@link SqlSession}: one
 * subclass per dialect.
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
abstract class Statements {

	/**
	 * Whether {@link #reserve} is one statement that the database commits by itself
	 * (auto-commit); when not, the store runs it in a transaction of its own.
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
	 * @param guarded whether to read the eviction watermark in the metadata table;
	 * {@code false} where the registry runs without that table (one the Go crid made,
	 * which it may not add), as the Go crid does
	 */
	abstract <E extends Exception> @Nullable SqlReservation reserve(SqlSession<E> session, RegistryTables tables,
			long timestamp, long blockSize, boolean guarded) throws E;

	/**
	 * Returns a warning when the database is set up so that a crash may lose committed
	 * reservations, or {@code null}.
	 */
	<E extends Exception> @Nullable String durabilityWarning(SqlSession<E> session) throws E {
		return null;
	}

	/**
	 * The MySQL family's source of the inserted row: guarded, a {@code SELECT} of the
	 * metadata row that reads the eviction watermark with {@code LOCK IN SHARE MODE}, so
	 * an eviction that raises it waits for running reservations and they for it
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
	 * Runs a query that returns one number.
	 * @throws IllegalStateException when it returns no row or SQL {@code NULL}
	 */
	static <E extends Exception> long number(SqlSession<E> session, String sql, long... parameters) throws E {
		@Nullable Object @Nullable [] row = session.queryRow(sql, parameters);
		if (row == null || row[0] == null) {
			throw new IllegalStateException("The statement returned no number: " + sql);
		}
		return longValue(row[0]);
	}

	/**
	 * Reads a number column, whichever class the driver chose for it ({@code Long},
	 * {@code BigInteger} for MySQL's unsigned values, {@code BigDecimal}).
	 */
	static long longValue(@Nullable Object value) {
		return decimal(value).longValue();
	}

	/** Reads a number column as a decimal, whichever class the driver chose for it. */
	static BigDecimal decimal(@Nullable Object value) {
		if (value instanceof BigDecimal decimal) {
			return decimal;
		}
		if (value instanceof Long || value instanceof Integer || value instanceof Short) {
			return BigDecimal.valueOf(((Number) value).longValue());
		}
		return new BigDecimal(String.valueOf(value));
	}

	/** Converts microseconds since 1970 to an instant. */
	static Instant micros(long micros) {
		return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000), Math.floorMod(micros, 1_000_000) * 1_000L);
	}

	/** Converts seconds since 1970, with a fraction, to an instant. */
	static Instant seconds(BigDecimal seconds) {
		return micros(seconds.movePointRight(6).longValue());
	}

}
