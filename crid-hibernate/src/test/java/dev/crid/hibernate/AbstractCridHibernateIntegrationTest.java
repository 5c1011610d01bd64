package dev.crid.hibernate;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import jakarta.persistence.EntityManager;

import dev.crid.CridId;
import dev.crid.CridLayout;
import dev.crid.CridNode;
import dev.crid.hibernate.fieldstyle.FieldCridIdEntity;
import dev.crid.hibernate.fieldstyle.FieldDefaultNodeEntity;
import dev.crid.hibernate.fieldstyle.FieldGetterEntity;
import dev.crid.hibernate.fieldstyle.FieldIdentityLeftoverEntity;
import dev.crid.hibernate.fieldstyle.FieldInheritedLeftoverEntity;
import dev.crid.hibernate.fieldstyle.FieldInheritedEntity;
import dev.crid.hibernate.fieldstyle.FieldLeftoverBaseEntity;
import dev.crid.hibernate.fieldstyle.FieldLongEntity;
import dev.crid.hibernate.fieldstyle.FieldNamedNodeEntity;
import dev.crid.hibernate.fieldstyle.FieldPrimitiveLongEntity;
import dev.crid.hibernate.fieldstyle.FieldSecondInheritedLeftoverEntity;
import dev.crid.hibernate.fieldstyle.FieldSequenceLeftoverEntity;
import dev.crid.hibernate.fieldstyle.FieldStringEntity;
import dev.crid.hibernate.nocrid.ClassAnnotatedEntity;
import dev.crid.hibernate.nocrid.ClassNamedNodeEntity;
import dev.crid.hibernate.packagestyle.PackageCridIdEntity;
import dev.crid.hibernate.packagestyle.PackageInheritedEntity;
import dev.crid.hibernate.packagestyle.PackageLongEntity;
import dev.crid.hibernate.packagestyle.PackageStringEntity;
import dev.crid.jdbc.JdbcTemplateRegistry;
import dev.crid.testsupport.TestDatabase;
import org.hibernate.Session;
import org.hibernate.SessionFactory;
import org.hibernate.cfg.AvailableSettings;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestInstance.Lifecycle;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.orm.jpa.JpaTransactionManager;
import org.springframework.orm.jpa.SharedEntityManagerCreator;
import org.springframework.orm.jpa.vendor.HibernateJpaDialect;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What {@code @Crid} promises on a real database, with Hibernate bootstrapped on its own:
 * both annotation styles and every supported identifier type get crid IDs that decode to
 * the present, inserts go out as JDBC batches, concurrent sessions get distinct IDs, and
 * IDs of rolled-back work are not handed out again; and {@code @GeneratedValue} left
 * beside {@code @Crid} is warned about at start-up and changes nothing; and entities with
 * {@code @Crid("public")} take their IDs from the node of that name. The nodes reserve
 * their blocks in {@link JdbcTemplateRegistry} tables on the same database
 * ({@code crid_hib_allocations_*} for the default node,
 * {@code crid_hib_pub_allocations_*} for {@code public}, of this run's own, created and
 * dropped here). One short subclass per database.
 */
@TestInstance(Lifecycle.PER_CLASS)
abstract class AbstractCridHibernateIntegrationTest {

	private static final int BATCH_SIZE = 50;

	/**
	 * The registry's table, this run's own: builds on the same database may run at the
	 * same time.
	 */
	private final String registryTable = "crid_hib_allocations_"
			+ Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 16);

	/** The table of the node named {@code public}, which has a layout of its own. */
	private final String publicRegistryTable = this.registryTable.replace("crid_hib_allocations_",
			"crid_hib_pub_allocations_");

	private Instant started;

	private DataSource dataSource;

	private DataSource registryDataSource;

	private JdbcTemplateRegistry registry;

	private CridNode node;

	/**
	 * The node named {@code public}: 41 timestamp bits and 22 sequence bits, where the
	 * default node has 31 and 32.
	 */
	private CridNode publicNode;

	private JdbcCounter counter;

	private TestHibernate hibernate;

	/**
	 * Returns a new pooled data source for the database under test.
	 * @param poolSize the pool's size
	 * @return the data source, closed by this class
	 */
	protected abstract DataSource createDataSource(int poolSize);

	static List<Class<?>> entities() {
		return List.of(FieldLongEntity.class, FieldPrimitiveLongEntity.class, FieldStringEntity.class,
				FieldCridIdEntity.class, FieldInheritedEntity.class, FieldGetterEntity.class, PackageLongEntity.class,
				PackageStringEntity.class, PackageCridIdEntity.class, PackageInheritedEntity.class,
				ClassAnnotatedEntity.class);
	}

	@BeforeAll
	void startHibernate() {
		this.started = Instant.now().truncatedTo(ChronoUnit.SECONDS);
		this.dataSource = createDataSource(8);
		// A pool of its own: sessions on eight threads may hold all eight connections of
		// the other.
		this.registryDataSource = createDataSource(2);
		this.registry = JdbcTemplateRegistry.builder(new JdbcTemplate(this.registryDataSource))
			.tableName(this.registryTable)
			.build();
		this.registry.ensureSchema();
		// Small blocks, so that the tests below also cross many block boundaries.
		this.node = CridNode.builder(this.registry).blockSize(100).threshold(50).build();
		JdbcTemplateRegistry publicRegistry = JdbcTemplateRegistry.builder(new JdbcTemplate(this.registryDataSource))
			.tableName(this.publicRegistryTable)
			.build();
		publicRegistry.ensureSchema();
		this.publicNode = CridNode.builder(publicRegistry)
			.timestampBits(41)
			.sequenceBits(22)
			.blockSize(100)
			.threshold(50)
			.build();
		this.counter = new JdbcCounter(this.dataSource);
		Map<String, Object> settings = TestHibernate.settings(this.counter.dataSource());
		settings.put(CridIdentifierGenerator.NODE_SETTING, this.node);
		settings.put(CridIdentifierGenerator.NODES_SETTING, Map.of("public", this.publicNode));
		settings.put(AvailableSettings.STATEMENT_BATCH_SIZE, BATCH_SIZE);
		List<Class<?>> mapped = new ArrayList<>(entities());
		mapped.addAll(List.of(FieldNamedNodeEntity.class, ClassNamedNodeEntity.class, FieldDefaultNodeEntity.class));
		this.hibernate = TestHibernate.build(settings, mapped);
	}

	@AfterAll
	void stopHibernate() throws Exception {
		if (this.hibernate != null) {
			this.hibernate.close();
		}
		if (this.node != null) {
			this.node.close();
		}
		if (this.publicNode != null) {
			this.publicNode.close();
		}
		if (this.registryDataSource != null) {
			TestDatabase.dropRegistryTables(this.registryDataSource, this.registryTable);
			TestDatabase.dropRegistryTables(this.registryDataSource, this.publicRegistryTable);
		}
		for (DataSource pool : new DataSource[] { this.registryDataSource, this.dataSource }) {
			if (pool instanceof AutoCloseable closeable) {
				closeable.close();
			}
		}
		dropDatabase();
	}

	/**
	 * Drops what the subclass created for this run beside the tables, once every pool is
	 * closed.
	 */
	protected void dropDatabase() {
	}

	@ParameterizedTest
	@MethodSource("entities")
	void givesEveryStyleAndTypeCridIdsThatDecodeToNow(Class<?> entityType) throws Exception {
		assertThat(sessionFactory().unwrap(SessionFactoryImplementor.class)
			.getMappingMetamodel()
			.getEntityDescriptor(entityType)
			.getGenerator()).isInstanceOf(CridIdentifierGenerator.class);
		List<Object> ids = persist(entityType, 3);
		assertThat(new HashSet<>(ids)).hasSize(3);
		for (Object id : ids) {
			Instant timestamp = this.node.parser().parse(value(id)).timestamp();
			assertThat(timestamp).isBetween(this.started.minusSeconds(1), Instant.now().plusSeconds(1));
			try (Session session = sessionFactory().openSession()) {
				Object loaded = session.find(entityType, id);
				assertThat(loaded).isNotNull();
				assertThat(sessionFactory().getPersistenceUnitUtil().getIdentifier(loaded)).isEqualTo(id);
			}
		}
	}

	@Test
	void givesNamedEntitiesIdsFromTheNodeOfThatNameAndTheOthersFromTheDefaultNode() throws Exception {
		long issuedByPublic = this.publicNode.stats().idsIssued();
		List<Object> named = new ArrayList<>(persist(FieldNamedNodeEntity.class, 3));
		named.addAll(persist(ClassNamedNodeEntity.class, 3));
		assertThat(this.publicNode.stats().idsIssued() - issuedByPublic).isEqualTo(6);
		for (Object id : named) {
			assertDecodesToNowWith(this.publicNode, this.node, id);
		}
		for (Object id : persist(FieldDefaultNodeEntity.class, 3)) {
			assertDecodesToNowWith(this.node, this.publicNode, id);
		}
		try (Session session = sessionFactory().openSession()) {
			assertThat(session.find(ClassNamedNodeEntity.class, named.get(5))).isNotNull();
		}
	}

	/**
	 * The ID decodes to the present with the issuing node's layout, and far from it with
	 * the other's.
	 */
	private void assertDecodesToNowWith(CridNode issuer, CridNode other, Object id) {
		assertThat(issuer.parser().parse(value(id)).timestamp()).isBetween(this.started.minusSeconds(1),
				Instant.now().plusSeconds(1));
		assertThat(other.parser().parse(value(id)).timestamp()).as("read with the other node's layout")
			.satisfiesAnyOf((timestamp) -> assertThat(timestamp).isBefore(this.started.minusSeconds(3600)),
					(timestamp) -> assertThat(timestamp).isAfter(Instant.now().plusSeconds(3600)));
	}

	@ParameterizedTest
	@ValueSource(strings = { "crid_hib_field_crid_id", "crid_hib_pkg_crid_id", "crid_hib_field_long",
			"crid_hib_pkg_string" })
	void storesNumericIdsAsBigintAndStringIdsAsText(String table) throws SQLException {
		int expected = table.endsWith("string") ? Types.VARCHAR : Types.BIGINT;
		int type = idColumn(table, (column) -> column.getInt("DATA_TYPE"));
		assertThat(type).isEqualTo(expected);
	}

	@Test
	void warnsAtStartUpAboutAGeneratedValueLeftBesideCridAndStillGivesCridIds() throws Exception {
		Map<String, Object> settings = TestHibernate.settings(this.dataSource);
		settings.put(CridIdentifierGenerator.NODE_SETTING, this.node);
		List<Class<?>> leftovers = List.of(FieldIdentityLeftoverEntity.class, FieldSequenceLeftoverEntity.class,
				FieldInheritedLeftoverEntity.class, FieldSecondInheritedLeftoverEntity.class);
		try (WarningRecorder recorder = new WarningRecorder();
				TestHibernate hibernate = TestHibernate.build(settings, leftovers)) {
			// One warning per identifier: the two entities that inherit theirs share one.
			assertThat(recorder.warnings()).hasSize(3)
				.anySatisfy((warning) -> assertThat(warning)
					.startsWith("The identifier of entity " + FieldIdentityLeftoverEntity.class.getName() + " ('id'")
					.contains("has both @Crid and @GeneratedValue(strategy = IDENTITY): Hibernate uses @Crid")
					.contains("not from an identity column")
					.endsWith("Remove @GeneratedValue."))
				.anySatisfy((warning) -> assertThat(warning)
					.startsWith("The identifier of entity " + FieldSequenceLeftoverEntity.class.getName() + " ('id'")
					.contains("@GeneratedValue(strategy = SEQUENCE)")
					.contains("not from a database sequence"))
				.anySatisfy((warning) -> assertThat(warning)
					.startsWith("The identifier of entities " + FieldInheritedLeftoverEntity.class.getName() + ", "
							+ FieldSecondInheritedLeftoverEntity.class.getName() + " ('id' declared in "
							+ FieldLeftoverBaseEntity.class.getName() + ")")
					.contains("@GeneratedValue(strategy = IDENTITY)"));
			SessionFactory leftoverFactory = hibernate.sessionFactory();
			for (Class<?> entityType : leftovers) {
				Object entity = entityType.getDeclaredConstructor().newInstance();
				leftoverFactory.inTransaction((session) -> session.persist(entity));
				Object id = leftoverFactory.getPersistenceUnitUtil().getIdentifier(entity);
				assertThat(this.node.parser().parse(value(id)).timestamp()).as("ID of %s", entityType.getSimpleName())
					.isBetween(this.started.minusSeconds(1), Instant.now().plusSeconds(1));
			}
			String autoIncrement = idColumn("crid_hib_field_identity_leftover",
					(column) -> column.getString("IS_AUTOINCREMENT"));
			assertThat(autoIncrement).as("the ignored IDENTITY made no identity column either").isEqualTo("NO");
		}
	}

	@ParameterizedTest
	@ValueSource(classes = { FieldLongEntity.class, PackageStringEntity.class, FieldNamedNodeEntity.class })
	void sendsAThousandInsertsAsTwentyJdbcBatches(Class<?> entityType) throws Exception {
		long before = count(entityType);
		this.counter.reset();
		persist(entityType, 1_000);
		assertThat(this.counter.batchedInserts()).isEqualTo(1_000);
		assertThat(this.counter.insertBatches()).isEqualTo(1_000 / BATCH_SIZE);
		assertThat(this.counter.singleInserts()).isZero();
		assertThat(count(entityType)).isEqualTo(before + 1_000);
	}

	@Test
	void givesDistinctIdsToEntitiesPersistedFromManyThreads() throws Exception {
		int threads = 8;
		int perThread = 250;
		long before = count(PackageLongEntity.class);
		ConcurrentLinkedQueue<Object> ids = new ConcurrentLinkedQueue<>();
		CountDownLatch start = new CountDownLatch(1);
		ExecutorService executor = Executors.newFixedThreadPool(threads);
		try {
			List<Future<?>> results = new ArrayList<>();
			for (int i = 0; i < threads; i++) {
				results.add(executor.submit(() -> {
					start.await();
					for (int round = 0; round < perThread / BATCH_SIZE; round++) {
						ids.addAll(persist(PackageLongEntity.class, BATCH_SIZE));
					}
					return null;
				}));
			}
			start.countDown();
			for (Future<?> result : results) {
				result.get(60, TimeUnit.SECONDS);
			}
		}
		finally {
			executor.shutdownNow();
		}
		assertThat(ids).hasSize(threads * perThread);
		assertThat(new HashSet<>(ids)).hasSize(threads * perThread);
		assertThat(count(PackageLongEntity.class)).isEqualTo(before + threads * perThread);
	}

	/**
	 * A business transaction as an application runs it: Spring's
	 * {@link JpaTransactionManager} over the session factory, exposing its JDBC
	 * connection for the one data source that Hibernate and the registry share, and a
	 * node that reserves on the caller's thread (its executor runs each reservation at
	 * once), so the reservation runs on the very thread, and could reach the very
	 * connection, of the transaction. A registry that joined the transaction would either
	 * be rolled back with it (and hand the rolled-back IDs' numbers out again) or commit
	 * it, rows written before the reservation included.
	 */
	@Test
	void neverHandsOutIdsOfARolledBackTransactionAgain() throws Exception {
		long before = count(FieldStringEntity.class);
		List<Object> rolledBack = new ArrayList<>();
		DataSource shared = createDataSource(2);
		try {
			JdbcTemplateRegistry sharedRegistry = JdbcTemplateRegistry.builder(new JdbcTemplate(shared))
				.tableName(this.registryTable)
				.build();
			Map<String, Object> settings = TestHibernate.settings(shared);
			settings.put(AvailableSettings.HBM2DDL_AUTO, "none");
			// Holds no block yet and never reserves ahead: each block its IDs come from
			// is reserved by a persist inside the transaction, on its thread.
			try (CridNode fresh = CridNode.builder(sharedRegistry)
				.blockSize(100)
				.threshold(0)
				.prefetchExecutor(Runnable::run)
				.build()) {
				settings.put(CridIdentifierGenerator.NODE_SETTING, fresh);
				try (TestHibernate hibernate = TestHibernate.build(settings, List.of(FieldStringEntity.class))) {
					JpaTransactionManager transactions = new JpaTransactionManager(hibernate.sessionFactory());
					transactions.setDataSource(shared);
					transactions.setJpaDialect(new HibernateJpaDialect());
					transactions.afterPropertiesSet();
					EntityManager entityManager = SharedEntityManagerCreator
						.createSharedEntityManager(hibernate.sessionFactory());
					new TransactionTemplate(transactions).executeWithoutResult((status) -> {
						assertThat(TransactionSynchronizationManager.hasResource(shared))
							.as("the transaction's connection, bound for the shared data source")
							.isTrue();
						// Flushed a batch at a time, so rows are written before the next
						// block is reserved: a reservation on the transaction's
						// connection would commit them (or be rolled back).
						for (int i = 1; i <= 250; i++) {
							Object entity = newInstance(FieldStringEntity.class);
							entityManager.persist(entity);
							rolledBack.add(hibernate.sessionFactory().getPersistenceUnitUtil().getIdentifier(entity));
							if (i % BATCH_SIZE == 0) {
								entityManager.flush();
							}
						}
						status.setRollbackOnly();
					});
				}
				assertThat(fresh.stats().synchronousAllocations().successes()).as("blocks reserved in the transaction")
					.isGreaterThanOrEqualTo(3);
			}
		}
		finally {
			if (shared instanceof AutoCloseable closeable) {
				closeable.close();
			}
		}
		assertThat(count(FieldStringEntity.class)).as("rows after the rollback").isEqualTo(before);
		// The registry rows survived the rollback: asked again for each second of the
		// rolled-back IDs, the registry answers numbers beyond all of them, as it would
		// for a node that never saw those blocks.
		CridLayout layout = this.node.layout();
		Map<Long, Long> highestSequenceBySecond = new TreeMap<>();
		for (Object id : rolledBack) {
			highestSequenceBySecond.merge(layout.timestampOf(value(id)), layout.sequenceOf(value(id)), Math::max);
		}
		highestSequenceBySecond.forEach((second, highest) -> assertThat(this.registry.allocate(second, 1))
			.as("next number of second %d", second)
			.isGreaterThan(highest));
		List<Object> committed = persist(FieldStringEntity.class, 500);
		assertThat(committed).doesNotContainAnyElementsOf(rolledBack);
		try (Session session = sessionFactory().openSession()) {
			for (Object id : rolledBack) {
				assertThat(session.find(FieldStringEntity.class, id)).isNull();
			}
		}
	}

	/**
	 * Reads an attribute of column {@code id} of the given table from the database's
	 * metadata.
	 */
	private <T> T idColumn(String table, ColumnReader<T> reader) throws SQLException {
		try (Connection connection = this.dataSource.getConnection()) {
			DatabaseMetaData metaData = connection.getMetaData();
			boolean upperCase = metaData.storesUpperCaseIdentifiers();
			String tableName = upperCase ? table.toUpperCase(Locale.ROOT) : table;
			try (ResultSet columns = metaData.getColumns(null, connection.getSchema(), tableName,
					upperCase ? "ID" : "id")) {
				assertThat(columns.next()).as("column id of table %s", table).isTrue();
				return reader.read(columns);
			}
		}
	}

	/** Reads from the current row of {@link DatabaseMetaData#getColumns}. */
	private interface ColumnReader<T> {

		T read(ResultSet column) throws SQLException;

	}

	private static Object newInstance(Class<?> type) {
		try {
			return type.getDeclaredConstructor().newInstance();
		}
		catch (ReflectiveOperationException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private SessionFactory sessionFactory() {
		return this.hibernate.sessionFactory();
	}

	/** Persists new entities in one transaction and returns their IDs. */
	private List<Object> persist(Class<?> entityType, int count) throws Exception {
		List<Object> entities = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			entities.add(entityType.getDeclaredConstructor().newInstance());
		}
		sessionFactory().inTransaction((session) -> entities.forEach(session::persist));
		List<Object> ids = new ArrayList<>();
		for (Object entity : entities) {
			ids.add(sessionFactory().getPersistenceUnitUtil().getIdentifier(entity));
		}
		return ids;
	}

	private long count(Class<?> entityType) {
		return sessionFactory().fromSession((session) -> session
			.createSelectionQuery("select count(*) from " + entityType.getSimpleName(), Long.class)
			.getSingleResult());
	}

	/** Returns an ID's value, checking that it has one of the supported types. */
	private static long value(Object id) {
		if (id instanceof Long value) {
			return value;
		}
		if (id instanceof String text) {
			assertThat(text).matches("[0-9]+");
			return CridId.parse(text).value();
		}
		assertThat(id).isInstanceOf(CridId.class);
		return ((CridId) id).value();
	}

}
