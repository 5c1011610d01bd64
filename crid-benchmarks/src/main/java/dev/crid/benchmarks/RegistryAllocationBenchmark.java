package dev.crid.benchmarks;

import java.sql.SQLException;
import java.util.concurrent.TimeUnit;

import dev.crid.CridNode;
import dev.crid.Registry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@link Registry#allocate(long, long)} of the JDBC registry on each database (parameter
 * {@code database}): blocks of the default size for the current second, as nodes reserve
 * them, so every thread contends for the same row. Reservations per second, committed
 * durably; beside it {@code plainUpsert}, the same statement run by hand, as the
 * baseline. Run it with {@code -t 1} and {@code -t 4}; times the block size it bounds how
 * many IDs per second the nodes sharing one registry can hand out when their blocks run
 * out faster than prefetching can hide.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class RegistryAllocationBenchmark {

	/**
	 * Reserves one block of {@link CridNode#DEFAULT_BLOCK_SIZE} for the current second.
	 * @param registry the registry under test
	 * @return the block's first sequence number
	 */
	@Benchmark
	public long allocate(RegistryState registry) {
		return registry.allocate();
	}

	/**
	 * Reserves the same block with the registry's upsert statement run by hand on the
	 * same pool: the baseline of what the registry itself adds (its eviction guard, clock
	 * read, timeout and retry handling).
	 * @param registry the registry under test, whose pool and table are used
	 * @return the block's first sequence number
	 * @throws SQLException if the statement fails
	 */
	@Benchmark
	public long plainUpsert(RegistryState registry) throws SQLException {
		return registry.upsert();
	}

}
