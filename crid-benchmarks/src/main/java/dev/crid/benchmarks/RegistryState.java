package dev.crid.benchmarks;

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
 * A JDBC registry on the database named by the {@code database} parameter, in a table of its own, with
 * a pool of 8 connections shared by every benchmark thread.
 */
@State(Scope.Benchmark)
public class RegistryState {

	private static final int POOL_SIZE = 8;

	/** The database: {@code postgresql} or {@code mariadb}. */
	@Param({ "postgresql", "mariadb" })
	public String database;

	private OpenRegistry opened;

	/**
	 * Opens the registry and creates its table if absent.
	 */
	@Setup(Level.Trial)
	public void start() {
		this.opened = OpenRegistry.open(BenchmarkRegistry.of(this.database), "crid_bench_registry", POOL_SIZE);
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
		long timestamp = CridLayout.DEFAULT.timestampAt(Instant.now());
		return this.opened.registry().allocate(timestamp, CridNode.DEFAULT_BLOCK_SIZE);
	}

}
