package dev.crid.benchmarks;

import java.util.Map;

import dev.crid.CridStats;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

/**
 * Counts, over the measurement iterations only, the node's stalls (calls that found no
 * block ready), synchronous reservations and prefetches, and reports them when the trial
 * ends. Warm-up iterations are left out: the very first block of a node is always
 * reserved synchronously.
 */
@State(Scope.Thread)
public class MeasuredAllocations {

	private boolean measuring;

	private CridStats before;

	private long stalls;

	private long synchronousAllocations;

	private long prefetchAllocations;

	private long idsIssued;

	/**
	 * Remembers the node's counters as an iteration starts.
	 * @param node the node under test
	 * @param iteration the iteration about to run
	 */
	@Setup(Level.Iteration)
	public void start(CridNodeState node, IterationParams iteration) {
		this.measuring = iteration.getType() == IterationType.MEASUREMENT;
		this.before = node.node().stats();
	}

	/**
	 * Adds what changed during a measurement iteration.
	 * @param node the node under test
	 */
	@TearDown(Level.Iteration)
	public void finish(CridNodeState node) {
		if (this.measuring) {
			CridStats after = node.node().stats();
			this.stalls += after.stalls() - this.before.stalls();
			this.synchronousAllocations += after.synchronousAllocations().count()
					- this.before.synchronousAllocations().count();
			this.prefetchAllocations += after.prefetchAllocations().count() - this.before.prefetchAllocations().count();
			this.idsIssued += after.idsIssued() - this.before.idsIssued();
		}
	}

	/**
	 * Reports the counts of the measurement iterations.
	 * @param benchmark the benchmark being run
	 * @param node the node under test
	 */
	@TearDown(Level.Trial)
	public void report(BenchmarkParams benchmark, CridNodeState node) {
		StatsLog.write(Map.of("benchmark", benchmark.getBenchmark(), "registry", node.registry, "kind", "measured",
				"idsIssued", this.idsIssued, "stalls", this.stalls, "synchronousAllocations",
				this.synchronousAllocations, "prefetchAllocations", this.prefetchAllocations, "runwaySeconds",
				node.runwaySeconds));
	}

}
