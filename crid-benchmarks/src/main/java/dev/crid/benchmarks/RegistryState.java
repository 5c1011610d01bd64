package dev.crid.benchmarks;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Map;

import dev.crid.CridLayout;
import dev.crid.CridNode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * A JDBC registry on the database named by the {@code database} parameter, in a table of
 * its own, with a pool of 8 connections shared by every benchmark thread; and, as a
 * baseline, the statement the registry runs on that database, run by hand on the same
 * pool and table.
 */
@State(Scope.Benchmark)
public class RegistryState {

	private static final int POOL_SIZE = 8;

	private static final String TABLE = "crid_bench_registry";

	/** The registry's statement per database, with {@code %s} for its table. */
	private static final Map<String, String> UPSERTS = Map.of("postgresql", "INSERT INTO %s AS a (ts, next_seq) "
			+ "VALUES (?, ?) ON CONFLICT (ts) DO UPDATE SET next_seq = a.next_seq + EXCLUDED.next_seq RETURNING "
			+ "a.next_seq - ?", "mariadb",
			"INSERT INTO %s (ts, next_seq) VALUES (?, ?) ON DUPLICATE KEY UPDATE "
					+ "next_seq = next_seq + VALUES(next_seq) RETURNING next_seq - ?");

	/** The database: {@code postgresql} or {@code mariadb}. */
	@Param({ "postgresql", "mariadb" })
	public String database;

	private OpenRegistry opened;

	private String upsert;

	/**
	 * Opens the registry and creates its table if absent.
	 */
	@Setup(Level.Trial)
	public void start() {
		this.opened = OpenRegistry.open(BenchmarkRegistry.of(this.database), TABLE, POOL_SIZE);
		this.upsert = UPSERTS.get(this.database).formatted(this.opened.tableName());
	}

	/**
	 * Reports which database served the trial and closes the pool.
	 * @param benchmark the benchmark being run
	 */
	@TearDown(Level.Trial)
	public void stop(BenchmarkParams benchmark) {
		StatsLog.write(Map.of("benchmark", benchmark.getBenchmark(), "registry", this.database, "kind", "database",
				"threads", benchmark.getThreads(), "product", this.opened.describe(), "registryImplementation",
				this.opened.registry().toString()));
		this.opened.close();
	}

	/**
	 * Reserves a block of the default size for the current second.
	 * @return the block's first sequence number
	 */
	public long allocate() {
		return this.opened.registry().allocate(currentSecond(), CridNode.DEFAULT_BLOCK_SIZE);
	}

	/**
	 * Reserves the same block with the registry's statement run by hand: a pooled
	 * connection in auto-commit mode, one prepared statement, no eviction guard, no clock
	 * read, no timeout, no retry. The baseline of what the registry adds.
	 * @return the block's first sequence number
	 * @throws SQLException if the statement fails
	 */
	public long upsert() throws SQLException {
		try (Connection connection = this.opened.dataSource().getConnection();
				PreparedStatement statement = connection.prepareStatement(this.upsert)) {
			statement.setLong(1, currentSecond());
			statement.setLong(2, CridNode.DEFAULT_BLOCK_SIZE);
			statement.setLong(3, CridNode.DEFAULT_BLOCK_SIZE);
			try (ResultSet result = statement.executeQuery()) {
				result.next();
				return result.getLong(1);
			}
		}
	}

	private static long currentSecond() {
		return CridLayout.DEFAULT.timestampAt(Instant.now());
	}

}
