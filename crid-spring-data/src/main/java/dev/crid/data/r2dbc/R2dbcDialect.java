package dev.crid.data.r2dbc;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

import dev.crid.Registry;

import org.jspecify.annotations.Nullable;

/**
 * The SQL of one database on R2DBC: the same statements as the JDBC registry's dialects,
 * with each driver's parameter markers. Every reservation reads the eviction watermark of
 * the metadata table under a lock that raising the watermark must wait for, so no
 * reservation for an evicted second can commit. Chosen by {@link #of(String)} from the
 * name the connection factory's metadata gives.
 */
enum R2dbcDialect {

	/**
	 * One atomic upsert, {@code FOR SHARE} on the watermark, a synchronous commit
	 * whatever the server's setting (a commit a crash could lose would be handed out
	 * again), and the database's clock.
	 */
	POSTGRESQL(true) {
		@Override
		String reserveSql(String allocations, String meta) {
			return "WITH guard AS (SELECT evicted_before FROM " + meta + " WHERE id = 1 FOR SHARE), "
					+ "durable AS (SELECT set_config('synchronous_commit', 'on', true)) " + "INSERT INTO " + allocations
					+ " AS a (ts, next_seq) " + "SELECT ?, ? FROM guard, durable WHERE guard.evicted_before <= ? "
					+ "ON CONFLICT (ts) DO UPDATE SET next_seq = a.next_seq + EXCLUDED.next_seq "
					+ "RETURNING a.next_seq - ?, (extract(epoch FROM clock_timestamp()) * 1000000)::bigint";
		}

		@Override
		Registry.Reservation reservation(Object[] row, long blockSize) {
			long micros = number(row[1]).longValue();
			return new Registry.Reservation(number(row[0]).longValue(),
					Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000), Math.floorMod(micros, 1_000_000) * 1_000L));
		}
	},

	/**
	 * MariaDB 10.5 and later:
	 * {@code INSERT ... SELECT ... ON DUPLICATE KEY UPDATE ... RETURNING}, reading the
	 * watermark {@code LOCK IN SHARE MODE}, and the database's clock.
	 */
	MARIADB(false) {
		@Override
		String reserveSql(String allocations, String meta) {
			return "INSERT INTO " + allocations + " (ts, next_seq) SELECT ?, ? FROM " + meta
					+ " WHERE id = 1 AND evicted_before <= ? LOCK IN SHARE MODE "
					+ "ON DUPLICATE KEY UPDATE next_seq = next_seq + ? RETURNING next_seq, UNIX_TIMESTAMP(NOW(6))";
		}

		@Override
		Registry.Reservation reservation(Object[] row, long blockSize) {
			BigDecimal seconds = new BigDecimal(row[1].toString());
			long micros = seconds.movePointRight(6).longValue();
			return new Registry.Reservation(number(row[0]).longValue() - blockSize,
					Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000), Math.floorMod(micros, 1_000_000) * 1_000L));
		}

		@Override
		@Nullable String durabilitySql() {
			return "SELECT @@innodb_flush_log_at_trx_commit";
		}

		@Override
		String schemaOptions() {
			return " ENGINE=InnoDB";
		}
	},

	/**
	 * H2, in one short transaction: lock the metadata row and check the watermark, then a
	 * {@code MERGE} read back through {@code FINAL TABLE}; a race to insert one new row
	 * fails one side with a duplicate key, which is retried. H2 runs on the application's
	 * clock, so it tells none.
	 */
	H2(true) {
		@Override
		boolean inTransaction() {
			return true;
		}

		@Override
		String reserveSql(String allocations, String meta) {
			return "SELECT next_seq FROM FINAL TABLE (MERGE INTO " + allocations + " t "
					+ "USING (VALUES (CAST(? AS BIGINT), CAST(? AS BIGINT))) AS s (ts, n) ON t.ts = s.ts "
					+ "WHEN MATCHED THEN UPDATE SET next_seq = t.next_seq + s.n "
					+ "WHEN NOT MATCHED THEN INSERT (ts, next_seq) VALUES (s.ts, s.n))";
		}

		@Override
		List<Object> reserveParameters(long timestamp, long blockSize) {
			return List.of(timestamp, blockSize);
		}

		@Override
		Registry.Reservation reservation(Object[] row, long blockSize) {
			return new Registry.Reservation(number(row[0]).longValue() - blockSize, null);
		}
	};

	/** What a failure lists as supported. */
	static final String SUPPORTED = "PostgreSQL, MariaDB (10.5 and later) and H2";

	/**
	 * Whether the driver's parameter markers are {@code $1, $2, ...} rather than
	 * {@code ?}.
	 */
	private final boolean numberedMarkers;

	R2dbcDialect(boolean numberedMarkers) {
		this.numberedMarkers = numberedMarkers;
	}

	/**
	 * Returns the dialect for the database a connection factory's metadata names, or
	 * {@code null} when there is none for it.
	 */
	static @Nullable R2dbcDialect of(String databaseName) {
		String name = String.valueOf(databaseName).toLowerCase(Locale.ROOT);
		if (name.contains("postgres")) {
			return POSTGRESQL;
		}
		if (name.contains("mariadb")) {
			return MARIADB;
		}
		if (name.equals("h2")) {
			return H2;
		}
		return null;
	}

	/**
	 * Whether a reservation needs a transaction of its own, in which the watermark is
	 * locked with an {@code UPDATE} that changes nothing before the upsert; otherwise the
	 * upsert is one auto-committed statement.
	 */
	boolean inTransaction() {
		return false;
	}

	/** The upsert, with {@code ?} for its parameters. */
	abstract String reserveSql(String allocations, String meta);

	/** The upsert's parameters, in the order of its markers. */
	List<Object> reserveParameters(long timestamp, long blockSize) {
		return List.of(timestamp, blockSize, timestamp, blockSize);
	}

	/** Reads the upsert's one row. */
	abstract Registry.Reservation reservation(Object[] row, long blockSize);

	/**
	 * Returns the query that reads the setting a crash-safe commit depends on (1 when
	 * safe), or {@code null} when the dialect checks none.
	 */
	@Nullable String durabilitySql() {
		return null;
	}

	/** What the table definitions end with. */
	String schemaOptions() {
		return "";
	}

	/** The statements that create both tables unless they exist. */
	final List<String> schema(String allocations, String meta) {
		return List.of(
				"CREATE TABLE IF NOT EXISTS " + allocations + " (ts BIGINT NOT NULL PRIMARY KEY, "
						+ "next_seq BIGINT NOT NULL)" + schemaOptions(),
				"CREATE TABLE IF NOT EXISTS " + meta + " (id INT NOT NULL PRIMARY KEY, evicted_before BIGINT NOT NULL, "
						+ "epoch_seconds BIGINT, timestamp_bits INT, sequence_bits INT)" + schemaOptions());
	}

	/** Puts the driver's markers in place of each {@code ?} of the statement. */
	final String markers(String sql) {
		if (!this.numberedMarkers) {
			return sql;
		}
		StringBuilder result = new StringBuilder(sql.length() + 8);
		int next = 1;
		for (int i = 0; i < sql.length(); i++) {
			char c = sql.charAt(i);
			if (c == '?') {
				result.append('$').append(next++);
			}
			else {
				result.append(c);
			}
		}
		return result.toString();
	}

	static Number number(Object value) {
		if (value instanceof Number number) {
			return number;
		}
		return new BigDecimal(String.valueOf(value));
	}

}
