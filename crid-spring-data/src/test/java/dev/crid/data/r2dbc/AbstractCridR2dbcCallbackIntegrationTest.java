package dev.crid.data.r2dbc;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import io.r2dbc.spi.ConnectionFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import reactor.blockhound.BlockHound;
import reactor.blockhound.BlockingOperationError;
import reactor.core.Exceptions;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.data.mapping.callback.ReactiveEntityCallbacks;
import org.springframework.data.r2dbc.core.R2dbcEntityTemplate;
import org.springframework.data.relational.core.mapping.RelationalMappingContext;
import org.springframework.r2dbc.core.DatabaseClient;

import dev.crid.CridNode;
import dev.crid.data.CridR2dbcCallback;
import dev.crid.r2dbc.R2dbcRegistry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Spring Data R2DBC aggregates with {@code @Id @Crid} get their IDs from a node on the
 * R2DBC registry, and no non-blocking thread ever waits for one: BlockHound, installed
 * for the whole test JVM, fails any blocking call made on a non-blocking thread
 * (Reactor's parallel scheduler, the drivers' event loops). The node's blocks are small
 * and never reserved ahead, so every fifth ID waits for the registry. A second node,
 * named {@code public}, with another layout and the same small blocks, serves the
 * aggregates whose {@code @Crid} names it, under the same rule. One short subclass per
 * database.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractCridR2dbcCallbackIntegrationTest {

	private static final String TABLE = "crid_r2dbc_note";

	private static final String MEMO_TABLE = "crid_r2dbc_memo";

	private ConnectionFactory connectionFactory;

	private R2dbcRegistry registry;

	private CridNode node;

	/**
	 * The node named {@code public}: 41 timestamp bits and 22 sequence bits, where
	 * {@link #node} has 31 and 32.
	 */
	private CridNode publicNode;

	/**
	 * The second this class started in: no ID of its nodes can be older.
	 */
	private Instant started;

	private R2dbcEntityTemplate template;

	/**
	 * A template whose callback has both nodes, through the constructor that takes them
	 * by name.
	 */
	private R2dbcEntityTemplate namedTemplate;

	/**
	 * Returns the connection factory of the database under test; called once per class.
	 */
	protected abstract ConnectionFactory createConnectionFactory();

	@BeforeAll
	void start() {
		this.started = Instant.now().truncatedTo(ChronoUnit.SECONDS);
		// With the integrations on the classpath (Reactor's marks its non-blocking
		// threads), and two exceptions, both r2dbc-mariadb's own reads of its jar on an
		// event loop: its version, from a resource in a class initializer, and, from 1.4
		// on (which Spring Boot 4.1 brings), the server's authentication plugin, looked
		// up
		// through a ServiceLoader in every handshake.
		BlockHound.install((builder) -> builder
			.allowBlockingCallsInside("org.mariadb.r2dbc.util.VersionFactory", "getInstance")
			.allowBlockingCallsInside("org.mariadb.r2dbc.authentication.AuthenticationFlowPluginLoader", "get"));
		this.connectionFactory = createConnectionFactory();
		DatabaseClient client = DatabaseClient.create(this.connectionFactory);
		client.sql("DROP TABLE IF EXISTS " + TABLE).then().block();
		client.sql("CREATE TABLE " + TABLE + " (id BIGINT PRIMARY KEY, body VARCHAR(100))").then().block();
		client.sql("DROP TABLE IF EXISTS " + MEMO_TABLE).then().block();
		client.sql("CREATE TABLE " + MEMO_TABLE + " (id BIGINT PRIMARY KEY, body VARCHAR(100))").then().block();
		this.registry = R2dbcRegistry.builder(this.connectionFactory)
			.tableName("crid_r2dbc_cb")
			.queryTimeout(Duration.ofSeconds(30))
			.build();
		this.registry.ensureSchema();
		this.node = CridNode.builder(this.registry).blockSize(5).threshold(0).build();
		this.template = new R2dbcEntityTemplate(this.connectionFactory);
		RelationalMappingContext mappingContext = (RelationalMappingContext) this.template.getConverter()
			.getMappingContext();
		// Unquoted names, so that each database folds them as it folds the DDL above.
		mappingContext.setForceQuote(false);
		CridR2dbcCallback callback = new CridR2dbcCallback(this.node, mappingContext);
		startUp(mappingContext, callback, Note.class);
		this.template.setEntityCallbacks(ReactiveEntityCallbacks.create(callback));
		R2dbcRegistry publicRegistry = R2dbcRegistry.builder(this.connectionFactory)
			.tableName("crid_r2dbc_cb_pub")
			.queryTimeout(Duration.ofSeconds(30))
			.build();
		publicRegistry.ensureSchema();
		this.publicNode = CridNode.builder(publicRegistry)
			.timestampBits(41)
			.sequenceBits(22)
			.blockSize(5)
			.threshold(0)
			.build();
		this.namedTemplate = new R2dbcEntityTemplate(this.connectionFactory);
		RelationalMappingContext namedMappingContext = (RelationalMappingContext) this.namedTemplate.getConverter()
			.getMappingContext();
		namedMappingContext.setForceQuote(false);
		CridR2dbcCallback namedCallback = new CridR2dbcCallback(Map.of("default", this.node, "public", this.publicNode),
				namedMappingContext);
		startUp(namedMappingContext, namedCallback, Note.class, Memo.class);
		this.namedTemplate.setEntityCallbacks(ReactiveEntityCallbacks.create(namedCallback));
	}

	/**
	 * Does what an application's start-up does before the first save: the mapping context
	 * learns the aggregates (Spring Boot's entity scan) and the callback checks them. The
	 * first look at a class takes the mapping context's lock, which two event-loop
	 * threads saving the same new class at once would wait for, and BlockHound would
	 * fail; Spring Data's own templates take it there too.
	 */
	private static void startUp(RelationalMappingContext mappingContext, CridR2dbcCallback callback,
			Class<?>... aggregates) {
		for (Class<?> aggregate : aggregates) {
			mappingContext.getRequiredPersistentEntity(aggregate);
		}
		callback.verify();
	}

	@AfterAll
	void stop() {
		if (this.node != null) {
			this.node.close();
		}
		if (this.publicNode != null) {
			this.publicNode.close();
		}
		if (this.connectionFactory != null) {
			DatabaseClient client = DatabaseClient.create(this.connectionFactory);
			for (String table : List.of(TABLE, MEMO_TABLE, "crid_r2dbc_cb", "crid_r2dbc_cb_meta", "crid_r2dbc_cb_pub",
					"crid_r2dbc_cb_pub_meta")) {
				client.sql("DROP TABLE IF EXISTS " + table).then().block();
			}
		}
	}

	@Test
	void savesSubscribedOnNonBlockingThreadsGetIdsWithoutBlockingThem() {
		List<Note> saved = Flux.range(0, 40)
			.flatMap((i) -> this.template.insert(new Note(null, "note " + i)).subscribeOn(Schedulers.parallel()), 4)
			.collectList()
			.block(Duration.ofSeconds(60));
		assertThat(saved).hasSize(40).extracting(Note::id).doesNotContainNull().doesNotHaveDuplicates();
		assertThat(this.node.stats().stalls()).as("saves that had to wait for a block").isPositive();
		Note first = saved.get(0);
		assertThat(this.template.select(Note.class)
			.matching(org.springframework.data.relational.core.query.Query
				.query(org.springframework.data.relational.core.query.Criteria.where("id").is(first.id())))
			.one()
			.block(Duration.ofSeconds(30))).isEqualTo(first);
	}

	@Test
	void eachAggregateGetsItsIdFromItsOwnNodeWithoutBlockingANonBlockingThread() {
		long stalledBefore = this.publicNode.stats().stalls();
		List<Object> saved = Flux.range(0, 40)
			.flatMap((i) -> ((i % 2 == 0) ? this.namedTemplate.insert(new Memo(null, "memo " + i))
					: this.namedTemplate.insert(new Note(null, "note " + i)))
				.cast(Object.class)
				.subscribeOn(Schedulers.parallel()), 4)
			.collectList()
			.block(Duration.ofSeconds(60));
		assertThat(saved).hasSize(40);
		List<Long> memoIds = saved.stream().filter(Memo.class::isInstance).map((memo) -> ((Memo) memo).id()).toList();
		List<Long> noteIds = saved.stream().filter(Note.class::isInstance).map((note) -> ((Note) note).id()).toList();
		assertThat(memoIds).hasSize(20).doesNotContainNull().doesNotHaveDuplicates();
		assertThat(noteIds).hasSize(20).doesNotContainNull().doesNotHaveDuplicates();
		memoIds.forEach((id) -> assertDecodesToNowWith(this.publicNode, this.node, id));
		noteIds.forEach((id) -> assertDecodesToNowWith(this.node, this.publicNode, id));
		assertThat(this.publicNode.stats().stalls() - stalledBefore).as("saves that waited for a block of public")
			.isPositive();
	}

	/**
	 * The ID decodes to a second of this class's run with the issuing node's layout, and
	 * far from the present with the other's. A second of the run, not the last few: a
	 * block reserved in an earlier test can still be served here, however long that test
	 * took on a busy machine.
	 */
	private void assertDecodesToNowWith(CridNode issuer, CridNode other, long id) {
		assertThat(issuer.parser().parse(id).timestamp()).isBetween(this.started, Instant.now());
		assertThat(Duration.between(other.parser().parse(id).timestamp(), Instant.now()).abs())
			.as("distance from now, read with the other node's layout")
			.isGreaterThan(Duration.ofHours(1));
	}

	@Test
	void savesChainedOnTheDriversThreadsGetIdsWithoutBlockingThem() {
		Note saved = this.template.insert(new Note(null, "first"))
			.flatMap((first) -> Flux.range(0, 12)
				.concatMap((i) -> this.template.insert(new Note(null, "after " + first.id() + " #" + i)))
				.last())
			.block(Duration.ofSeconds(60));
		assertThat(saved.id()).isNotNull();
	}

	@Test
	void anIdThatIsSetIsLeftAlone() {
		Note saved = this.template.insert(new Note(987_654_321L, "preset"))
			.subscribeOn(Schedulers.parallel())
			.block(Duration.ofSeconds(30));
		assertThat(saved.id()).isEqualTo(987_654_321L);
	}

	@Test
	void theCheckFailsACallThatWaitsForABlockOnANonBlockingThread() {
		// What the callback would do if it took the ID where it is subscribed: the node
		// reserves no block ahead, and at most 64 blocks of 5 at a time, so within these
		// IDs one waits, and BlockHound fails it.
		AtomicReference<Throwable> failure = new AtomicReference<>();
		Flux.range(0, 1_000)
			.concatMap((i) -> Mono.fromCallable(this.node::nextId).subscribeOn(Schedulers.parallel()))
			.onErrorResume((ex) -> {
				failure.set(ex);
				return Mono.empty();
			})
			.blockLast(Duration.ofSeconds(30));
		assertThat(failure.get()).isInstanceOf(BlockingOperationError.class);
	}

	@Test
	void theCheckFailsASleepOnANonBlockingThread() {
		Mono<String> sleeping = Mono.fromCallable(() -> {
			Thread.sleep(1);
			return "slept";
		}).subscribeOn(Schedulers.parallel());
		assertThatThrownBy(() -> sleeping.block(Duration.ofSeconds(30)))
			.satisfies((ex) -> assertThat(Exceptions.unwrap(ex)).isInstanceOf(BlockingOperationError.class));
	}

	@Test
	void theRegistryRefusesToBeCalledOnANonBlockingThread() {
		assertThatExceptionOfType(dev.crid.RegistryException.class)
			.isThrownBy(() -> Mono.fromCallable(() -> this.registry.allocate(1, 1))
				.subscribeOn(Schedulers.parallel())
				.block(Duration.ofSeconds(30)))
			.withMessageContaining("non-blocking thread");
	}

}
