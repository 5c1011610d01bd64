package dev.crid.benchmarks.capacity;

import java.util.List;
import java.util.function.ToLongFunction;

import org.HdrHistogram.Histogram;

/**
 * What a scenario's nodes did together: the figures of the capacity table.
 *
 * @param scenario the scenario
 * @param rowCallsPerSecond the registry calls one row of the database took flat out just
 * before the scenario ({@link RowProbe})
 * @param loadAtStart the load average (1, 5, 15 min) as it started
 * @param loadAtEnd the load average as it ended
 * @param nodes each node's result
 */
record ScenarioSummary(Scenario scenario, double rowCallsPerSecond, String loadAtStart, String loadAtEnd,
		List<NodeResult> nodes) {

	double seconds() {
		return this.nodes.stream().mapToDouble(NodeResult::seconds).max().orElse(Double.NaN);
	}

	long ids() {
		return this.nodes.stream().mapToLong(NodeResult::ids).sum();
	}

	/** IDs per second handed out, by all nodes together. */
	double reachedRate() {
		return ids() / seconds();
	}

	long registryCalls() {
		return this.nodes.stream().mapToLong(NodeResult::registryCalls).sum();
	}

	double registryCallsPerSecond() {
		return registryCalls() / seconds();
	}

	long sum(ToLongFunction<NodeResult> figure) {
		return this.nodes.stream().mapToLong(figure).sum();
	}

	long max(ToLongFunction<NodeResult> figure) {
		return this.nodes.stream().mapToLong(figure).max().orElse(0);
	}

	Histogram nextIdNanos() {
		return merged(this.nodes.stream().map(NodeResult::nextIdNanos).toList());
	}

	Histogram registryNanos() {
		return merged(this.nodes.stream().map(NodeResult::registryNanos).toList());
	}

	/** The largest p99.9 of one node's {@code nextId()}. */
	long worstNodeP999() {
		return this.nodes.stream().mapToLong((node) -> node.nextIdNanos().getValueAtPercentile(99.9)).max().orElse(0);
	}

	/** The node's sequence numbers reserved per second, spread over the nodes. */
	Fairness reservedShare() {
		return Fairness.of(this.nodes.stream().mapToDouble((node) -> node.reserved() / node.seconds()).toArray());
	}

	/** IDs served over IDs asked for, spread over the nodes. */
	Fairness servedShare() {
		return Fairness.of(this.nodes.stream().mapToDouble(ScenarioSummary::servedOverAsked).toArray());
	}

	/** The lowest share of what a node was asked for that it served. */
	double lowestServedOverAsked() {
		return this.nodes.stream().mapToDouble(ScenarioSummary::servedOverAsked).min().orElse(Double.NaN);
	}

	/**
	 * The median and largest {@code allocationSize} the nodes had when the measurement
	 * ended.
	 */
	long[] allocationSizes() {
		long[] sizes = this.nodes.stream().mapToLong(NodeResult::allocationSize).sorted().toArray();
		return (sizes.length == 0) ? new long[] { 0, 0 }
				: new long[] { sizes[sizes.length / 2], sizes[sizes.length - 1] };
	}

	private static double servedOverAsked(NodeResult node) {
		return node.ids() / (node.rate() * node.seconds());
	}

	private static Histogram merged(List<Histogram> histograms) {
		Histogram merged = new Histogram(2);
		histograms.forEach(merged::add);
		return merged;
	}

}
