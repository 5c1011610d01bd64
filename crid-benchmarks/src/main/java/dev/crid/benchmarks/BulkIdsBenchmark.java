package dev.crid.benchmarks;

import java.util.concurrent.TimeUnit;

import dev.crid.CridNode;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@value #COUNT} IDs at once, as a batch import needs them: through
 * {@link CridNode#nextIds(int)}, and, as the baseline, through a loop of
 * {@link CridNode#nextId()} calls that fills an array of the same size. IDs per
 * microsecond, on a node with the default block size and threshold, on the registry named
 * by the {@code registry} parameter; the node's stalls are secondary results.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@Threads(1)
public class BulkIdsBenchmark {

	/** IDs per call. */
	static final int COUNT = 10_000;

	/**
	 * {@link CridNode#nextIds(int)}.
	 * @param node the node under test
	 * @param counters where the node's stalls are reported
	 * @return the IDs
	 */
	@Benchmark
	@OperationsPerInvocation(COUNT)
	public long[] nextIds(CridNodeState node, AllocationCounters counters) {
		return node.node().nextIds(COUNT);
	}

	/**
	 * A loop of {@link CridNode#nextId()} calls filling an array.
	 * @param node the node under test
	 * @param counters where the node's stalls are reported
	 * @return the IDs
	 */
	@Benchmark
	@OperationsPerInvocation(COUNT)
	public long[] nextIdLoop(CridNodeState node, AllocationCounters counters) {
		CridNode crid = node.node();
		long[] ids = new long[COUNT];
		for (int i = 0; i < COUNT; i++) {
			ids[i] = crid.nextId();
		}
		return ids;
	}

}
