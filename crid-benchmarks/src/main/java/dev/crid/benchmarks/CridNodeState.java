package dev.crid.benchmarks;

import java.time.Duration;
import java.util.LinkedHashMap;
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
 * A {@link CridNode} with the default block size and threshold, shared by every benchmark
 * thread, on the registry named by the {@code registry} parameter. Its first block is
 * reserved before the first iteration, and its counters are reported when the trial ends,
 * with how long its registry calls took and how long each waited for the single thread
 * that runs them (the node's own executor, reproduced here so that the wait can be
 * timed).
 */
@State(Scope.Benchmark)
public class CridNodeState {

	/**
	 * How long, at 1 million IDs per second, the default threshold of 5,000 IDs lasts.
	 */
	private static final long SLOW_MICROS = 5_000;

	/**
	 * The registry the node reserves its blocks in: {@code memory}, {@code postgresql},
	 * or {@code delayed} (in memory, 1 ms per reservation; a control for the paced
	 * benchmark, selected with {@code -p}).
	 */
	@Param({ "memory", "postgresql" })
	public String registry;

	/**
	 * The node's runway in seconds ({@code CridNode.Builder.runway}): 0, the default,
	 * keeps no stock beyond the next block (selected with {@code -p runwaySeconds=10}).
	 */
	@Param({ "0" })
	public long runwaySeconds;

	private OpenRegistry opened;

	private TimedRegistry registryCalls;

	private TimedExecutor prefetchThread;

	private CridNode node;

	/**
	 * Opens the registry and builds the node.
	 */
	@Setup(Level.Trial)
	public void start() {
		this.opened = OpenRegistry.open(BenchmarkRegistry.of(this.registry), "crid_bench_next_id", 4);
		this.registryCalls = new TimedRegistry(this.opened.registry());
		this.prefetchThread = new TimedExecutor();
		this.node = CridNode.builder(this.registryCalls)
			.prefetchExecutor(this.prefetchThread)
			.runway(Duration.ofSeconds(this.runwaySeconds))
			.build();
		this.node.nextId();
	}

	/**
	 * Reports the node's counters and closes it with its registry.
	 * @param benchmark the benchmark being run
	 */
	@TearDown(Level.Trial)
	public void stop(BenchmarkParams benchmark) {
		Map<String, Object> timings = new LinkedHashMap<>();
		timings.put("runwaySeconds", this.runwaySeconds);
		timings.putAll(this.prefetchThread.waits().summary("prefetchThreadWait", SLOW_MICROS));
		timings.putAll(this.registryCalls.durations().summary("registryCall", SLOW_MICROS));
		StatsLog.record(benchmark.getBenchmark(), this.registry, benchmark.getThreads(), this.node.stats(), timings);
		this.node.close();
		this.prefetchThread.close();
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
