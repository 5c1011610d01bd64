package dev.crid.benchmarks;

import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.zaxxer.hikari.HikariDataSource;
import dev.crid.CridNode;
import dev.crid.hibernate.CridIdentifierGenerator;
import org.hibernate.Session;
import org.hibernate.SessionFactory;
import org.hibernate.Transaction;
import org.hibernate.boot.MetadataSources;
import org.hibernate.boot.registry.StandardServiceRegistry;
import org.hibernate.boot.registry.StandardServiceRegistryBuilder;
import org.hibernate.cfg.AvailableSettings;
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

	private static final int BATCH_SIZE = 50;

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

	private HikariDataSource dataSource;

	private OpenRegistry registry;

	private CridNode node;

	private SessionFactory sessionFactory;

	/**
	 * Opens the pool, builds the session factory (creating the entity's table) and, for
	 * crid, the node.
	 */
	@Setup(Level.Trial)
	public void start() {
		this.idStrategy = IdStrategy.of(this.strategy);
		this.dataSource = BenchmarkDatabase.POSTGRESQL.dataSource(2,
				Map.of("reWriteBatchedInserts", String.valueOf(this.reWriteBatchedInserts)));
		StandardServiceRegistryBuilder settings = new StandardServiceRegistryBuilder()
			.applySetting(AvailableSettings.JAKARTA_NON_JTA_DATASOURCE, this.dataSource)
			.applySetting(AvailableSettings.STATEMENT_BATCH_SIZE, BATCH_SIZE)
			.applySetting(AvailableSettings.HBM2DDL_AUTO, "create-drop")
			.applySetting(AvailableSettings.PHYSICAL_NAMING_STRATEGY, new BenchmarkTables.NamingStrategy());
		if (this.idStrategy == IdStrategy.CRID) {
			this.registry = OpenRegistry.open(BenchmarkRegistry.POSTGRESQL, "crid_bench_jpa", 2);
			this.node = CridNode.builder(this.registry.registry()).build();
			settings.applySetting(CridIdentifierGenerator.NODE_SETTING, this.node);
		}
		StandardServiceRegistry registry = settings.build();
		try {
			this.sessionFactory = new MetadataSources(registry).addAnnotatedClass(this.idStrategy.entity())
				.buildMetadata()
				.buildSessionFactory();
		}
		catch (RuntimeException ex) {
			StandardServiceRegistryBuilder.destroy(registry);
			throw ex;
		}
	}

	/**
	 * Empties the table and has PostgreSQL write out what the measurement before left in
	 * memory ({@code CHECKPOINT}), so that every measurement inserts into the same
	 * starting state and none pays for the writes of another.
	 */
	@Setup(Level.Iteration)
	public void emptyTable() {
		this.sessionFactory.inTransaction((session) -> {
			session.createNativeMutationQuery("truncate table " + this.idStrategy.tableName()).executeUpdate();
			session.createNativeMutationQuery("checkpoint").executeUpdate();
		});
	}

	/**
	 * Inserts the rows.
	 * @return the number of rows inserted
	 */
	@Benchmark
	public long insert() {
		Instant now = Instant.now();
		long inserted = 0;
		try (Session session = this.sessionFactory.openSession()) {
			while (inserted < this.rows) {
				Transaction transaction = session.beginTransaction();
				long end = Math.min(inserted + this.rowsPerTransaction, this.rows);
				for (; inserted < end; inserted++) {
					session.persist(this.idStrategy.newRow().fill(inserted, now));
				}
				transaction.commit();
				session.clear();
			}
		}
		return inserted;
	}

	/**
	 * Checks that every row arrived.
	 */
	@TearDown(Level.Iteration)
	public void checkRows() {
		long count = this.sessionFactory.fromSession((session) -> session
			.createSelectionQuery("select count(*) from " + this.idStrategy.entity().getSimpleName(), Long.class)
			.getSingleResult());
		if (count != this.rows) {
			throw new IllegalStateException(
					"Expected " + this.rows + " rows of " + this.strategy + " but found " + count);
		}
	}

	/**
	 * Drops the table and closes everything; reports the crid node's counters.
	 * @param benchmark the benchmark being run
	 */
	@TearDown(Level.Trial)
	public void stop(BenchmarkParams benchmark) {
		this.sessionFactory.close();
		if (this.node != null) {
			StatsLog.record(benchmark.getBenchmark(), "postgresql", benchmark.getThreads(), this.node.stats(),
					Map.of("strategy", this.strategy));
			this.node.close();
			this.registry.close();
		}
		this.dataSource.close();
	}

}
