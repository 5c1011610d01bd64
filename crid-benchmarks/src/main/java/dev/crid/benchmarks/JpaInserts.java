package dev.crid.benchmarks;

import java.time.Instant;
import java.util.Map;
import java.util.Set;

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

/**
 * Plain Hibernate (no Spring) on PostgreSQL, set up for the JPA benchmarks: a Hikari
 * pool, {@code hibernate.jdbc.batch_size=50}, the tables of the given identifier
 * strategies created when it opens and dropped when it closes, and, where {@code @Crid}
 * is among them, a node with the default block size and threshold on the PostgreSQL
 * registry.
 */
final class JpaInserts implements AutoCloseable {

	private static final int BATCH_SIZE = 50;

	private final HikariDataSource dataSource;

	private final OpenRegistry registry;

	private final CridNode node;

	private final SessionFactory sessionFactory;

	private JpaInserts(HikariDataSource dataSource, OpenRegistry registry, CridNode node,
			SessionFactory sessionFactory) {
		this.dataSource = dataSource;
		this.registry = registry;
		this.node = node;
		this.sessionFactory = sessionFactory;
	}

	/**
	 * Opens the pool, builds the session factory (creating the entities' tables) and, for
	 * crid, the node.
	 * @param strategies the identifier strategies whose entities are inserted
	 * @param reWriteBatchedInserts whether the PostgreSQL driver rewrites each batch into
	 * one multi-row INSERT
	 */
	static JpaInserts open(Set<IdStrategy> strategies, boolean reWriteBatchedInserts) {
		HikariDataSource dataSource = BenchmarkDatabase.POSTGRESQL.dataSource(2,
				Map.of("reWriteBatchedInserts", String.valueOf(reWriteBatchedInserts)));
		OpenRegistry registry = null;
		CridNode node = null;
		StandardServiceRegistry services = null;
		try {
			StandardServiceRegistryBuilder settings = new StandardServiceRegistryBuilder()
				.applySetting(AvailableSettings.JAKARTA_NON_JTA_DATASOURCE, dataSource)
				.applySetting(AvailableSettings.STATEMENT_BATCH_SIZE, BATCH_SIZE)
				.applySetting(AvailableSettings.HBM2DDL_AUTO, "create-drop")
				.applySetting(AvailableSettings.PHYSICAL_NAMING_STRATEGY, new BenchmarkTables.NamingStrategy());
			if (strategies.contains(IdStrategy.CRID)) {
				registry = OpenRegistry.open(BenchmarkRegistry.POSTGRESQL, "crid_bench_jpa", 2);
				node = CridNode.builder(registry.registry()).build();
				settings.applySetting(CridIdentifierGenerator.NODE_SETTING, node);
			}
			services = settings.build();
			MetadataSources sources = new MetadataSources(services);
			strategies.forEach((strategy) -> sources.addAnnotatedClass(strategy.entity()));
			return new JpaInserts(dataSource, registry, node, sources.buildMetadata().buildSessionFactory());
		}
		catch (RuntimeException ex) {
			if (services != null) {
				StandardServiceRegistryBuilder.destroy(services);
			}
			closeNode(node, registry);
			dataSource.close();
			throw ex;
		}
	}

	/**
	 * Empties the strategy's table and has PostgreSQL write out what the measurement
	 * before left in memory ({@code CHECKPOINT}), so that every measurement inserts into
	 * the same starting state and none pays for the writes of another.
	 */
	void emptyTable(IdStrategy strategy) {
		this.sessionFactory.inTransaction((session) -> {
			session.createNativeMutationQuery("truncate table " + strategy.tableName()).executeUpdate();
			session.createNativeMutationQuery("checkpoint").executeUpdate();
		});
	}

	/**
	 * Inserts {@code rows} rows of the strategy's entity, {@code rowsPerTransaction} per
	 * transaction, in one session cleared after each commit.
	 * @return the number of rows inserted
	 */
	long insert(IdStrategy strategy, int rows, int rowsPerTransaction) {
		Instant now = Instant.now();
		long inserted = 0;
		try (Session session = this.sessionFactory.openSession()) {
			while (inserted < rows) {
				Transaction transaction = session.beginTransaction();
				long end = Math.min(inserted + rowsPerTransaction, rows);
				for (; inserted < end; inserted++) {
					session.persist(strategy.newRow().fill(inserted, now));
				}
				transaction.commit();
				session.clear();
			}
		}
		return inserted;
	}

	/**
	 * Checks that the strategy's table holds the given number of rows.
	 * @throws IllegalStateException if it holds another number
	 */
	void checkRows(IdStrategy strategy, int rows) {
		long count = this.sessionFactory.fromSession((session) -> session
			.createSelectionQuery("select count(*) from " + strategy.entity().getSimpleName(), Long.class)
			.getSingleResult());
		if (count != rows) {
			throw new IllegalStateException("Expected " + rows + " rows of " + strategy + " but found " + count);
		}
	}

	/**
	 * The crid node, or {@code null} where {@code @Crid} is not among the strategies.
	 */
	CridNode node() {
		return this.node;
	}

	/**
	 * Drops the tables and closes the session factory, the node and the pools.
	 */
	@Override
	public void close() {
		try {
			this.sessionFactory.close();
		}
		finally {
			closeNode(this.node, this.registry);
			this.dataSource.close();
		}
	}

	private static void closeNode(CridNode node, OpenRegistry registry) {
		if (node != null) {
			node.close();
		}
		if (registry != null) {
			registry.close();
		}
	}

}
