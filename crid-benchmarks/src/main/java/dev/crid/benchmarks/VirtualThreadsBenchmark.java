package dev.crid.benchmarks;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

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
 * {@link CridNode#nextId()} from {@value VirtualThreads#THREADS} virtual threads at once,
 * each taking {@value VirtualThreads#IDS_PER_THREAD} IDs, beside
 * {@link AtomicLong#getAndIncrement()} on one counter shared by the same number of
 * virtual threads: IDs per microsecond, thread start-up included alike. The virtual
 * threads run on as many carrier threads as there are cores, each thread taking its own
 * stripe of the node by its id, so the node keeps a few slices for thousands of threads.
 * Needs Java 21 or later (the module is built for Java 17): on an older Java the trial
 * stops at once, saying so.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
@Threads(1)
public class VirtualThreadsBenchmark {

	/**
	 * {@link CridNode#nextId()} from every virtual thread, on a node built as a user
	 * builds one on the in-memory registry: a caller that finds the next block's
	 * reservation queued and not started (the node's thread waiting for a core the
	 * carriers keep) runs it itself.
	 * @param node the node under test
	 * @param threads the virtual threads
	 * @return the IDs combined
	 * @throws Exception if a virtual thread failed
	 */
	@Benchmark
	@OperationsPerInvocation(VirtualThreads.IDS_PER_INVOCATION)
	public long crid(PlainUserBenchmark.PlainNode node, VirtualThreads threads) throws Exception {
		CridNode crid = node.node();
		return threads.take(crid::nextId);
	}

	/**
	 * {@link CridNode#nextId()} from every virtual thread, on a node whose registry is
	 * not an {@code InMemoryRegistry} itself (the in-memory one wrapped to time its
	 * calls, as in {@link NextIdBenchmark}): the node never calls such a registry on a
	 * caller's thread, so every reservation waits for the node's own thread.
	 * @param node the node under test
	 * @param threads the virtual threads
	 * @param counters where the node's stalls are reported
	 * @return the IDs combined
	 * @throws Exception if a virtual thread failed
	 */
	@Benchmark
	@OperationsPerInvocation(VirtualThreads.IDS_PER_INVOCATION)
	public long cridRegistryNotInMemory(CridNodeState node, VirtualThreads threads, AllocationCounters counters)
			throws Exception {
		CridNode crid = node.node();
		return threads.take(crid::nextId);
	}

	/**
	 * {@link AtomicLong#getAndIncrement()} on one counter shared by every virtual thread.
	 * @param counter the shared counter
	 * @param threads the virtual threads
	 * @return the numbers combined
	 * @throws Exception if a virtual thread failed
	 */
	@Benchmark
	@OperationsPerInvocation(VirtualThreads.IDS_PER_INVOCATION)
	public long atomicLong(SharedCounter counter, VirtualThreads threads) throws Exception {
		return threads.take(counter::next);
	}

}
