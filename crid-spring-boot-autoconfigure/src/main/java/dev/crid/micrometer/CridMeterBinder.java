package dev.crid.micrometer;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

import dev.crid.CridNode;
import dev.crid.CridStats;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * Publishes the {@link CridNode#stats() statistics} of nodes as Micrometer meters, each
 * tagged {@code node} with the node's name. Every value is read from a stats snapshot
 * when the registry is scraped, so {@code nextId()} does no extra work.
 *
 * <ul>
 * <li>{@code crid.allocations} (function timer, tag {@code mode} = {@code prefetch} |
 * {@code synchronous}): registry calls and the time spent in them;</li>
 * <li>{@code crid.allocations.outcome} (function counter, tags {@code mode} and
 * {@code outcome} = {@code success} | {@code failure}): registry calls by result;</li>
 * <li>{@code crid.allocations.consecutive.failures} (gauge): registry calls failed since
 * the last success;</li>
 * <li>{@code crid.stalls} (function counter): {@code nextId()} calls that had to wait for
 * the registry;</li>
 * <li>{@code crid.ids.issued} (function counter): IDs handed out;</li>
 * <li>{@code crid.ids.left} (gauge): IDs left in the block being served;</li>
 * <li>{@code crid.clock.skew} (gauge, seconds): how far the registry's clock was ahead of
 * the node's at the last reservation (negative: behind), or NaN when the registry does
 * not tell its clock;</li>
 * <li>{@code crid.registry.went.back} (function counter): blocks refused because the
 * registry handed out numbers it had given the node before.</li>
 * </ul>
 */
public class CridMeterBinder implements MeterBinder {

	private final Map<String, CridNode> nodes;

	/**
	 * Creates a binder for the given nodes.
	 * @param nodes the nodes to publish, by name: the value of each one's tag
	 * {@code node}
	 */
	public CridMeterBinder(Map<String, CridNode> nodes) {
		this.nodes = Map.copyOf(nodes);
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		this.nodes.forEach((name, node) -> bindTo(registry, node, Tags.of("node", name)));
	}

	private void bindTo(MeterRegistry registry, CridNode node, Tags tags) {
		bindReservations(registry, node, tags, "prefetch", CridStats::prefetchAllocations);
		bindReservations(registry, node, tags, "synchronous", CridStats::synchronousAllocations);
		Gauge.builder("crid.allocations.consecutive.failures", node, stat(CridStats::consecutiveFailures))
			.description("Registry calls that failed since the last one that succeeded")
			.tags(tags)
			.register(registry);
		FunctionCounter.builder("crid.stalls", node, stat(CridStats::stalls))
			.description("Calls to nextId() that had to wait for the registry")
			.tags(tags)
			.register(registry);
		FunctionCounter.builder("crid.ids.issued", node, stat(CridStats::idsIssued))
			.description("IDs handed out")
			.tags(tags)
			.register(registry);
		Gauge.builder("crid.ids.left", node, stat(CridStats::idsLeftInBlock))
			.description("IDs left in the block being served")
			.tags(tags)
			.register(registry);
		Gauge.builder("crid.runway", node, (n) -> n.stats().runway().toNanos() / 1e9)
			.description(
					"How long the IDs the node holds last at its rate: how long it could serve without its registry")
			.baseUnit("seconds")
			.tags(tags)
			.register(registry);
		Gauge.builder("crid.clock.skew", node, CridMeterBinder::clockSkewSeconds)
			.description("How far the registry's clock was ahead of the node's at the last reservation")
			.baseUnit("seconds")
			.tags(tags)
			.register(registry);
		FunctionCounter.builder("crid.registry.went.back", node, stat(CridStats::registryWentBack))
			.description("Blocks refused because the registry handed out numbers it had given the node before")
			.tags(tags)
			.register(registry);
	}

	private static void bindReservations(MeterRegistry registry, CridNode node, Tags tags, String mode,
			Function<CridStats, CridStats.Allocations> reservations) {
		FunctionTimer
			.builder("crid.allocations", node, (n) -> reservations.apply(n.stats()).count(),
					(n) -> reservations.apply(n.stats()).totalTime().toNanos(), TimeUnit.NANOSECONDS)
			.description("Registry calls that reserved (or failed to reserve) a block of sequence numbers")
			.tag("mode", mode)
			.tags(tags)
			.register(registry);
		FunctionCounter.builder("crid.allocations.outcome", node, (n) -> reservations.apply(n.stats()).successes())
			.description("Registry calls by result")
			.tags("mode", mode, "outcome", "success")
			.tags(tags)
			.register(registry);
		FunctionCounter.builder("crid.allocations.outcome", node, (n) -> reservations.apply(n.stats()).failures())
			.description("Registry calls by result")
			.tags("mode", mode, "outcome", "failure")
			.tags(tags)
			.register(registry);
	}

	private static double clockSkewSeconds(CridNode node) {
		Duration skew = node.stats().clockSkew();
		return (skew != null) ? skew.toNanos() / 1e9 : Double.NaN;
	}

	private static ToDoubleFunction<CridNode> stat(ToLongFunction<CridStats> value) {
		return (node) -> value.applyAsLong(node.stats());
	}

}
