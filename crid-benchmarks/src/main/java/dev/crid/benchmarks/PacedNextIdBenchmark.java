package dev.crid.benchmarks;

import java.util.concurrent.TimeUnit;

import dev.crid.CridNode;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@link CridNode#nextId()} at a steady rate — one million IDs per second by default —
 * rather than flat out: the latency a caller sees (JMH samples the time of single calls,
 * so the percentiles are per call) and, reported by {@link MeasuredAllocations} when the
 * trial ends, whether any call had to wait for the registry after warm-up. A node whose
 * threshold covers its registry's latency at that rate should never reserve
 * synchronously. The in-memory node and a shared {@code AtomicLong}, paced the same way
 * in the same run, are the baselines: what they show beyond their own cost is the
 * machine.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 4)
@Fork(1)
@Threads(1)
public class PacedNextIdBenchmark {

	/**
	 * {@link CridNode#nextId()}, once the pacer says it is time for the next call.
	 * @param node the node under test
	 * @param pacer spaces the calls
	 * @param reservations counts the calls that waited for the registry after warm-up
	 * @return the ID
	 */
	@Benchmark
	public long crid(CridNodeState node, Pacer pacer, MeasuredAllocations reservations) {
		return node.node().nextId();
	}

	/**
	 * {@link java.util.concurrent.atomic.AtomicLong#getAndIncrement()}, paced the same
	 * way: the floor of a paced call on this machine, whatever the generator.
	 * @param counter the counter
	 * @param pacer spaces the calls
	 * @return the number
	 */
	@Benchmark
	public long atomicLong(SharedCounter counter, Pacer pacer) {
		return counter.next();
	}

}
