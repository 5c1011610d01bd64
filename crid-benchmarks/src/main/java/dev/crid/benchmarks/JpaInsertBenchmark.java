package dev.crid.benchmarks;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

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

/**
 * Inserts {@code rows} rows of a small entity into PostgreSQL through plain Hibernate (no
 * Spring), with {@code hibernate.jdbc.batch_size=50}, {@code rowsPerTransaction} rows per
 * transaction, once per identifier strategy (parameter {@code strategy}): {@code crid}
 * ({@code @Crid}, a node with the default block size and threshold on the PostgreSQL
 * registry), {@code sequence} (pooled optimizer, Hibernate's {@code allocationSize} 50),
 * {@code identity}, {@code uuid} (Hibernate's time-based UUID) and {@code assigned} (set
 * by the application from an {@code AtomicLong} before {@code persist}: no identifier
 * round trip at all, the floor of every strategy). Each measurement is one insert of all
 * the rows into an emptied and checkpointed table; rows per second are {@code rows}
 * divided by the score. The PostgreSQL driver rewrites each JDBC batch into one multi-row
 * INSERT ({@code reWriteBatchedInserts}, as applications that insert in batches set it),
 * for every strategy alike; without it the driver sends a batch as one statement per row.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 5)
@Measurement(iterations = 9)
@Fork(1)
@Threads(1)
public class JpaInsertBenchmark {

	/**
	 * The identifier strategy: {@code crid}, {@code sequence}, {@code identity},
	 * {@code uuid} or {@code assigned}.
	 */
	@Param({ "crid", "sequence", "identity", "uuid", "assigned" })
	public String strategy;

	/** Rows inserted per measurement. */
	@Param({ "100000" })
	public int rows;

	/** Rows per transaction. */
	@Param({ "1000" })
	public int rowsPerTransaction;

	/** Whether the PostgreSQL driver rewrites each batch into one multi-row INSERT. */
	@Param({ "true" })
	public boolean reWriteBatchedInserts;

	private IdStrategy idStrategy;

	private JpaInserts inserts;

	/**
	 * Opens the pool, builds the session factory (creating the entity's table) and, for
	 * crid, the node.
	 */
	@Setup(Level.Trial)
	public void start() {
		this.idStrategy = IdStrategy.of(this.strategy);
		this.inserts = JpaInserts.open(Set.of(this.idStrategy), this.reWriteBatchedInserts);
	}

	/**
	 * Empties and checkpoints the table.
	 */
	@Setup(Level.Iteration)
	public void emptyTable() {
		this.inserts.emptyTable(this.idStrategy);
	}

	/**
	 * Inserts the rows.
	 * @return the number of rows inserted
	 */
	@Benchmark
	public long insert() {
		return this.inserts.insert(this.idStrategy, this.rows, this.rowsPerTransaction);
	}

	/**
	 * Checks that every row arrived.
	 */
	@TearDown(Level.Iteration)
	public void checkRows() {
		this.inserts.checkRows(this.idStrategy, this.rows);
	}

	/**
	 * Drops the table and closes everything; reports the crid node's counters.
	 * @param benchmark the benchmark being run
	 */
	@TearDown(Level.Trial)
	public void stop(BenchmarkParams benchmark) {
		if (this.inserts.node() != null) {
			StatsLog.record(benchmark.getBenchmark(), "postgresql", benchmark.getThreads(), this.inserts.node().stats(),
					Map.of("strategy", this.strategy));
		}
		this.inserts.close();
	}

}
