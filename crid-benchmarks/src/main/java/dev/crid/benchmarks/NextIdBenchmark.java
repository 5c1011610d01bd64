package dev.crid.benchmarks;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import dev.crid.CridNode;
import dev.crid.InMemoryRegistry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@link CridNode#nextId()} on an {@link InMemoryRegistry} with the default block size and threshold,
 * beside {@link AtomicLong#getAndIncrement()} on one counter shared by all benchmark threads: the floor
 * that any generator built on a shared counter pays. Run with {@code -t 1} and {@code -t 2}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(2)
public class NextIdBenchmark {

	private CridNode node;

	private AtomicLong counter;

	@Setup
	public void setUp() {
		this.node = CridNode.builder(new InMemoryRegistry()).build();
		this.counter = new AtomicLong();
	}

	@TearDown
	public void tearDown() {
		this.node.close();
	}

	@Benchmark
	public long cridNextId() {
		return this.node.nextId();
	}

	@Benchmark
	public long atomicLongGetAndIncrement() {
		return this.counter.getAndIncrement();
	}

}
