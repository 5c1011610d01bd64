package dev.crid.benchmarks;

import java.util.Map;

import dev.crid.CridNode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * A {@link CridNode} with the default block size and threshold, shared by every benchmark thread, on the
 * registry named by the {@code registry} parameter. Its first block is reserved before the first
 * iteration, and its counters are reported when the trial ends.
 */
@State(Scope.Benchmark)
public class CridNodeState {

	/** The registry the node reserves its blocks in: {@code memory} or {@code postgresql}. */
	@Param({ "memory", "postgresql" })
	public String registry;

	private OpenRegistry opened;

	private CridNode node;

	/**
	 * Opens the registry and builds the node.
	 */
	@Setup(Level.Trial)
	public void start() {
		this.opened = OpenRegistry.open(BenchmarkRegistry.of(this.registry), "crid_bench_next_id", 4);
		this.node = CridNode.builder(this.opened.registry()).build();
		this.node.nextId();
	}

	/**
	 * Reports the node's counters and closes it with its registry.
	 * @param benchmark the benchmark being run
	 */
	@TearDown(Level.Trial)
	public void stop(BenchmarkParams benchmark) {
		StatsLog.record(benchmark.getBenchmark(), this.registry, benchmark.getThreads(), this.node.stats(), Map.of());
		this.node.close();
		this.opened.close();
	}

	/**
	 * Returns the node under test.
	 * @return the node
	 */
	public CridNode node() {
		return this.node;
	}

}
