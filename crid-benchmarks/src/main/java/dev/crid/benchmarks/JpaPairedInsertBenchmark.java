package dev.crid.benchmarks;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.crid.CridStats;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

/**
 * One identifier strategy beside the floor in one trial: the rows of
 * {@link JpaInsertBenchmark}, inserted by {@code strategy} and by the application's own
 * {@code AtomicLong} ({@code assigned}) in alternate iterations, in the order A B B A A B
 * B A …, each into its own emptied and checkpointed table, on one session factory and one
 * pool. Where {@link JpaInsertBenchmark} runs each strategy in a JVM of its own, one
 * after the other, so that whatever the database and the machine did in between lands on
 * one of them, here the two share every minute of the trial: a drift in the database's
 * speed falls on both alike, and their ratio can tell a few percent apart.
 *
 * <p>
 * The warm-up is long, 16 measurements: in the first 20 or so of a trial a few take two
 * or three times as long as the others, whichever strategy they fall on (the cause is not
 * known; PostgreSQL logs nothing then but the benchmark's own checkpoints). JMH's score
 * is the mean over both strategies and means nothing by itself; each measurement's
 * duration is written with {@link StatsLog}, per strategy, for the report, with the
 * ratio: the median, over the pairs of neighbouring measurements (one of each strategy),
 * of the floor's duration over the strategy's, which is the strategy's rows per second
 * over the floor's. A pair shares the minute it ran in, so a drift over the trial falls
 * on both of its measurements.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 16)
@Measurement(iterations = 24)
@Fork(1)
@Threads(1)
public class JpaPairedInsertBenchmark {

	/**
	 * The identifier strategy measured beside the floor: {@code crid}, {@code sequence},
	 * {@code identity} or {@code uuid}.
	 */
	@Param({ "crid" })
	public String strategy;

	/** Rows inserted per measurement. */
	@Param({ "100000" })
	public int rows;

	/** Rows per transaction. */
	@Param({ "1000" })
	public int rowsPerTransaction;

	private IdStrategy measured;

	private JpaInserts inserts;

	private int iteration;

	private IdStrategy current;

	private boolean measuring;

	private long lastNanos;

	private final List<Double> strategySeconds = new ArrayList<>();

	private final List<Double> floorSeconds = new ArrayList<>();

	/**
	 * Opens the pool and builds the session factory with both entities (and, for crid,
	 * the node).
	 */
	@Setup(Level.Trial)
	public void start() {
		this.measured = IdStrategy.of(this.strategy);
		if (this.measured == IdStrategy.ASSIGNED) {
			throw new IllegalArgumentException("The floor is measured beside another strategy, not beside itself");
		}
		this.inserts = JpaInserts.open(EnumSet.of(this.measured, IdStrategy.ASSIGNED), true);
	}

	/**
	 * Picks the iteration's strategy, A B B A A B B A …, and empties and checkpoints its
	 * table.
	 * @param iteration the iteration about to run
	 */
	@Setup(Level.Iteration)
	public void nextIteration(IterationParams iteration) {
		this.current = (((this.iteration + 1) / 2) % 2 == 0) ? this.measured : IdStrategy.ASSIGNED;
		this.measuring = iteration.getType() == IterationType.MEASUREMENT;
		this.inserts.emptyTable(this.current);
	}

	/**
	 * Inserts the rows with the iteration's strategy.
	 * @return the number of rows inserted
	 */
	@Benchmark
	public long insert() {
		long start = System.nanoTime();
		long inserted = this.inserts.insert(this.current, this.rows, this.rowsPerTransaction);
		this.lastNanos = System.nanoTime() - start;
		return inserted;
	}

	/**
	 * Checks that every row arrived and keeps the measurement's duration.
	 */
	@TearDown(Level.Iteration)
	public void endIteration() {
		this.inserts.checkRows(this.current, this.rows);
		if (this.measuring) {
			((this.current == IdStrategy.ASSIGNED) ? this.floorSeconds : this.strategySeconds)
				.add(this.lastNanos / 1e9);
		}
		this.iteration++;
	}

	/**
	 * Reports the measurements and the crid node's counters; drops the tables and closes
	 * everything.
	 * @param benchmark the benchmark being run
	 */
	@TearDown(Level.Trial)
	public void stop(BenchmarkParams benchmark) {
		try {
			Map<String, Object> values = new LinkedHashMap<>();
			values.put("benchmark", benchmark.getBenchmark());
			values.put("strategy", this.strategy);
			values.put("rows", this.rows);
			values.put("strategySeconds", this.strategySeconds);
			values.put("floorSeconds", this.floorSeconds);
			List<Double> pairs = new ArrayList<>();
			for (int i = 0; i < Math.min(this.floorSeconds.size(), this.strategySeconds.size()); i++) {
				pairs.add(this.floorSeconds.get(i) / this.strategySeconds.get(i));
			}
			if (!pairs.isEmpty()) {
				values.put("timesFloor", median(pairs));
			}
			if (this.inserts.node() != null) {
				CridStats stats = this.inserts.node().stats();
				values.put("registryCalls",
						stats.prefetchAllocations().count() + stats.synchronousAllocations().count());
				values.put("allocationSize", stats.allocationSize());
			}
			StatsLog.write(values);
		}
		finally {
			this.inserts.close();
		}
	}

	private static double median(List<Double> values) {
		List<Double> sorted = values.stream().sorted().toList();
		int middle = sorted.size() / 2;
		return (sorted.size() % 2 == 1) ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
	}

}
