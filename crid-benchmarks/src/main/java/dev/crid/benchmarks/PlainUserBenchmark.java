package dev.crid.benchmarks;

import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import dev.crid.CridNode;
import dev.crid.InMemoryRegistry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * {@link CridNode#nextId()} measured the plain way a user's own benchmark would measure
 * it, beside {@link AtomicLong#getAndIncrement()} on one shared counter in the same run:
 * a node built with {@code CridNode.builder(new InMemoryRegistry()).build()} (its own
 * executor, every setting at its default), one fork, and no JVM options of its own, so
 * the JVM picks the heap and collector it would pick for any program on the machine.
 * {@link NextIdBenchmark} measures the same call with a node whose registry calls and
 * their executor are timed; this one shows what a user sees without any of that.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class PlainUserBenchmark {

	/**
	 * {@link CridNode#nextId()} on a node built with the defaults.
	 * @param state the node
	 * @return the ID
	 */
	@Benchmark
	public long crid(PlainNode state) {
		return state.node.nextId();
	}

	/**
	 * {@link AtomicLong#getAndIncrement()} on one counter shared by every thread.
	 * @param counter the shared counter
	 * @return the number
	 */
	@Benchmark
	public long atomicLong(SharedCounter counter) {
		return counter.next();
	}

	/**
	 * A node as a user builds one: the in-memory registry and every setting at its
	 * default.
	 */
	@State(Scope.Benchmark)
	public static class PlainNode {

		private CridNode node;

		/**
		 * Builds the node.
		 */
		@Setup(Level.Trial)
		public void start() {
			this.node = CridNode.builder(new InMemoryRegistry()).build();
		}

		/**
		 * Returns the node under test.
		 * @return the node
		 */
		public CridNode node() {
			return this.node;
		}

		/**
		 * Reports the node's counters (after the last measurement, so that they cost it
		 * nothing) and closes it.
		 * @param benchmark the benchmark being run
		 */
		@TearDown(Level.Trial)
		public void stop(BenchmarkParams benchmark) {
			StatsLog.record(benchmark.getBenchmark(), "memory", benchmark.getThreads(), this.node.stats(),
					Map.of("jvmArgs", String.join(" ", benchmark.getJvmArgs())));
			this.node.close();
		}

	}

}
