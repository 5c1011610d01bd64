package dev.crid.starter;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import com.zaxxer.hikari.HikariDataSource;
import dev.crid.CridNode;
import dev.crid.CridParser;
import dev.crid.ParsedId;
import dev.crid.Registry;
import dev.crid.jdbc.JdbcDialect;
import dev.crid.jdbc.JdbcTemplateRegistry;
import dev.crid.testsupport.TestDatabase;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A JPA application on PostgreSQL with nothing but this starter, crid-hibernate and
 * Boot's JPA starter: entities with {@code @Id @Crid Long id} get distinct, decodable IDs
 * from the CridNode bean, and Hibernate still sends the inserts in JDBC batches.
 * Hibernate counts as a database initializer here
 * ({@code spring.jpa.defer-datasource-initialization=true}), the set-up in which a
 * registry that waited for database initialization would close a dependency cycle.
 */
@SpringBootTest(classes = CridStarterJpaIntegrationTest.JpaApplication.class,
		properties = { "spring.jpa.hibernate.ddl-auto=create-drop", "spring.jpa.defer-datasource-initialization=true",
				"spring.jpa.properties.hibernate.jdbc.batch_size=50",
				"spring.jpa.properties.hibernate.order_inserts=true",
				"spring.jpa.properties.hibernate.session.events.auto=dev.crid.starter.BatchCounter",
				"crid.registry.jdbc.initialize-schema=always", "crid.block-size=300", "crid.threshold=100" })
class CridStarterJpaIntegrationTest {

	private static final String TABLE = "crid_starter_it_" + Long.toHexString(System.nanoTime() & 0xffffff);

	@Autowired
	private CridNode node;

	@Autowired
	private CridParser parser;

	@Autowired
	private Registry registry;

	@Autowired
	private PlatformTransactionManager transactionManager;

	@PersistenceContext
	private EntityManager entityManager;

	/**
	 * The second the class started in, before its application: no ID of its node can be
	 * older.
	 */
	private static Instant started = Instant.EPOCH;

	@BeforeAll
	static void needsPostgreSql() {
		started = Instant.now().truncatedTo(ChronoUnit.SECONDS);
		// Skips the class here when PostgreSQL is missing: an abort while Spring loads
		// the context is an error.
		TestDatabase.POSTGRESQL.endpoint();
	}

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry properties) {
		TestDatabase.Endpoint database = TestDatabase.POSTGRESQL.endpoint();
		properties.add("spring.datasource.url", database::url);
		properties.add("spring.datasource.username", database::username);
		properties.add("spring.datasource.password", database::password);
		properties.add("crid.registry.jdbc.table-name", () -> TABLE);
	}

	@AfterAll
	static void dropRegistryTable() {
		try (HikariDataSource admin = TestDatabase.POSTGRESQL.dataSource(1)) {
			TestDatabase.dropRegistryTables(admin, TABLE);
		}
	}

	@Test
	void theStarterGivesADatabaseRegistry() {
		assertThat(this.registry).isInstanceOf(JdbcTemplateRegistry.class);
		assertThat(((JdbcTemplateRegistry) this.registry).dialect()).isEqualTo(JdbcDialect.POSTGRESQL);
		assertThat(((JdbcTemplateRegistry) this.registry).tableName()).isEqualTo(TABLE);
	}

	@Test
	void persistsEntitiesWithDistinctDecodableIdsInJdbcBatches() {
		long issuedBefore = this.node.stats().idsIssued();
		BatchCounter.reset();
		List<Long> ids = new TransactionTemplate(this.transactionManager).execute((status) -> {
			List<Item> items = new ArrayList<>();
			for (int i = 0; i < 1_000; i++) {
				Item item = new Item("item " + i);
				this.entityManager.persist(item);
				items.add(item);
			}
			this.entityManager.flush();
			return items.stream().map(Item::getId).toList();
		});
		assertThat(BatchCounter.batches()).as("JDBC batches for 1,000 inserts at batch_size 50").isEqualTo(20);
		Set<Long> distinct = ids.stream().collect(Collectors.toSet());
		assertThat(distinct).hasSize(1_000).doesNotContainNull();
		assertThat(this.node.stats().idsIssued() - issuedBefore).isEqualTo(1_000);
		for (long id : distinct) {
			ParsedId parsed = this.parser.parse(id);
			// A second of the class's run, not of this test's: the node serves what is
			// left
			// of a block an earlier test reserved, however long ago that was on a busy
			// machine.
			assertThat(parsed.timestamp()).isBetween(started, Instant.now());
			assertThat(parsed.sequence()).isBetween(0L, this.node.layout().maxSequence());
		}
		Long stored = new TransactionTemplate(this.transactionManager).execute(
				(status) -> this.entityManager.createQuery("select count(i) from Item i where i.id in :ids", Long.class)
					.setParameter("ids", distinct)
					.getSingleResult());
		assertThat(stored).isEqualTo(1_000);
	}

	@Test
	void entitiesPersistedFromManyThreadsGetDistinctIds() throws Exception {
		TransactionTemplate transactions = new TransactionTemplate(this.transactionManager);
		Set<Long> ids = ConcurrentHashMap.newKeySet();
		ExecutorService executor = Executors.newFixedThreadPool(4);
		try {
			List<Future<?>> done = new ArrayList<>();
			for (int t = 0; t < 4; t++) {
				done.add(executor.submit(() -> {
					for (int batch = 0; batch < 5; batch++) {
						List<Long> persisted = transactions.execute((status) -> {
							List<Item> items = new ArrayList<>();
							for (int i = 0; i < 50; i++) {
								Item item = new Item("concurrent");
								this.entityManager.persist(item);
								items.add(item);
							}
							return items.stream().map(Item::getId).toList();
						});
						for (Long id : persisted) {
							assertThat(ids.add(id)).as("id %d handed out twice", id).isTrue();
						}
					}
				}));
			}
			for (Future<?> future : done) {
				future.get(60, TimeUnit.SECONDS);
			}
		}
		finally {
			executor.shutdownNow();
		}
		assertThat(ids).hasSize(1_000);
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class JpaApplication {

	}

}
