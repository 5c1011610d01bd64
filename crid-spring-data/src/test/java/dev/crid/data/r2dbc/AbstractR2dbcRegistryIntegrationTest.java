package dev.crid.data.r2dbc;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import javax.sql.DataSource;

import io.r2dbc.spi.ConnectionFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.jdbc.core.JdbcTemplate;

import dev.crid.CridLayout;
import dev.crid.CridNode;
import dev.crid.LayoutMismatchException;
import dev.crid.Registry;
import dev.crid.RegistryException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The R2DBC registry on a real database: the registry contract (blocks of one second tile
 * its sequence numbers from 0, whoever asks), and the JDBC registry's guards (the layout
 * record, the eviction watermark, the database's clock, a missing table, the call on a
 * non-blocking thread). The tables are looked at through JDBC, as another process sharing
 * them would. One short subclass per database.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractR2dbcRegistryIntegrationTest {

	private static final AtomicLong timestamps = new AtomicLong(
			1_000_000 + ThreadLocalRandom.current().nextLong(1_000_000_000));

	private final String table = "crid_r2dbc_" + Long.toString(ThreadLocalRandom.current().nextLong(1L << 40), 36);

	private ConnectionFactory connectionFactory;

	private DataSource dataSource;

	private JdbcTemplate jdbc;

	private R2dbcRegistry registry;

	/**
	 * Returns the connection factory of the database under test; called once per class.
	 */
	protected abstract ConnectionFactory createConnectionFactory();

	/**
	 * Returns a JDBC data source on the same database, to look at the tables; called once
	 * per class.
	 */
	protected abstract DataSource createDataSource();

	/** Whether the database tells its clock with each reservation. */
	protected abstract boolean tellsItsClock();

	@BeforeAll
	void createRegistry() {
		this.connectionFactory = createConnectionFactory();
		this.dataSource = createDataSource();
		this.jdbc = new JdbcTemplate(this.dataSource);
		this.registry = registry(this.table);
		this.registry.ensureSchema();
	}

	@AfterAll
	void dropTables() throws Exception {
		if (this.jdbc != null) {
			this.jdbc.execute("DROP TABLE IF EXISTS " + this.table);
			this.jdbc.execute("DROP TABLE IF EXISTS " + this.table + "_meta");
		}
		if (this.dataSource instanceof AutoCloseable closeable) {
			closeable.close();
		}
	}

	/**
	 * A registry on the given table. Its query timeout is six times the default: other
	 * builds share this machine's two cores, and a driver's first connection in a cold
	 * JVM has been seen to take 5 s there; no test here measures latency.
	 */
	private R2dbcRegistry registry(String tableName) {
		return R2dbcRegistry.builder(this.connectionFactory)
			.tableName(tableName)
			.queryTimeout(Duration.ofSeconds(30))
			.build();
	}

	private static long freshTimestamp() {
		return timestamps.incrementAndGet();
	}

	private long storedNextSequence(long timestamp) {
		return this.jdbc.queryForObject("SELECT next_seq FROM " + this.table + " WHERE ts = ?", Long.class, timestamp);
	}

	@Test
	void startsOfOneSecondAreZeroThenMultiplesOfTheBlockSizeAsTheTableRecords() {
		long timestamp = freshTimestamp();
		List<Long> starts = new ArrayList<>();
		for (int i = 0; i < 5; i++) {
			starts.add(this.registry.allocate(timestamp, 250));
		}
		assertThat(starts).containsExactly(0L, 250L, 500L, 750L, 1000L);
		assertThat(storedNextSequence(timestamp)).isEqualTo(1250);
		assertThat(this.registry.allocate(timestamp, 7)).isEqualTo(1250);
		long other = freshTimestamp();
		assertThat(this.registry.allocate(other, 3)).isZero();
		assertThat(this.registry.allocate(timestamp, 1)).isEqualTo(1257);
	}

	@Test
	void handlesTheLargestTimestampAndSequenceOfTheDefaultLayout() {
		long timestamp = CridLayout.DEFAULT.maxTimestamp() - (freshTimestamp() % 1000);
		long wholeSecond = CridLayout.DEFAULT.maxSequence() + 1;
		assertThat(this.registry.allocate(timestamp, wholeSecond)).isZero();
		assertThat(this.registry.allocate(timestamp, wholeSecond)).isEqualTo(wholeSecond);
	}

	@Test
	void allocatesNonOverlappingBlocksUnderContention() throws Exception {
		long timestamp = freshTimestamp();
		int threads = 6;
		int perThread = 40;
		ExecutorService executor = Executors.newFixedThreadPool(threads);
		CountDownLatch start = new CountDownLatch(1);
		List<Future<List<long[]>>> futures = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			futures.add(executor.submit(() -> {
				List<long[]> blocks = new ArrayList<>();
				start.await();
				for (int i = 0; i < perThread; i++) {
					long size = ThreadLocalRandom.current().nextLong(1, 101);
					blocks.add(new long[] { this.registry.allocate(timestamp, size), size });
				}
				return blocks;
			}));
		}
		start.countDown();
		List<long[]> blocks = new ArrayList<>();
		for (Future<List<long[]>> future : futures) {
			blocks.addAll(future.get(120, TimeUnit.SECONDS));
		}
		executor.shutdown();
		blocks.sort(Comparator.comparingLong((block) -> block[0]));
		long expectedStart = 0;
		for (long[] block : blocks) {
			assertThat(block[0]).as("start of the block after [0, %d)", expectedStart).isEqualTo(expectedStart);
			expectedStart += block[1];
		}
		assertThat(storedNextSequence(timestamp)).isEqualTo(expectedStart);
	}

	@Test
	void rejectsANegativeTimestampAndABlockSizeBelowOneReservingNothing() {
		long timestamp = freshTimestamp();
		assertThatIllegalArgumentException().isThrownBy(() -> this.registry.allocate(-1, 10))
			.withMessageContaining("timestamp is -1");
		assertThatIllegalArgumentException().isThrownBy(() -> this.registry.allocate(timestamp, 0))
			.withMessageContaining("blockSize is 0");
		assertThat(this.registry.allocate(timestamp, 5)).isZero();
	}

	@Test
	void recordsTheFirstLayoutAndRefusesAnother() {
		withOwnTables((own) -> {
			R2dbcRegistry first = registry(own);
			first.checkLayout(CridLayout.DEFAULT);
			CridLayout other = CridLayout.of(CridLayout.DEFAULT.epoch(), 33, 30);
			R2dbcRegistry second = registry(own);
			second.checkLayout(CridLayout.DEFAULT);
			assertThatExceptionOfType(LayoutMismatchException.class).isThrownBy(() -> second.checkLayout(other))
				.satisfies((ex) -> assertThat(ex.registryLayout()).isEqualTo(CridLayout.DEFAULT));
			assertThat(
					this.jdbc.queryForObject("SELECT timestamp_bits FROM " + own + "_meta WHERE id = 1", Integer.class))
				.isEqualTo(CridLayout.DEFAULT.timestampBits());
		});
	}

	/** Runs the test on tables of its own, created for it and dropped afterwards. */
	private void withOwnTables(Consumer<String> test) {
		String own = this.table + "_" + Long.toString(ThreadLocalRandom.current().nextLong(1L << 20), 36);
		try {
			registry(own).ensureSchema();
			test.accept(own);
		}
		finally {
			this.jdbc.execute("DROP TABLE IF EXISTS " + own);
			this.jdbc.execute("DROP TABLE IF EXISTS " + own + "_meta");
		}
	}

	@Test
	void anEvictedSecondIsRefusedFromThenOnAndItsRowsAreGone() {
		long old = freshTimestamp();
		long kept = freshTimestamp();
		this.registry.allocate(old, 10);
		this.registry.allocate(kept, 10);
		assertThat(this.registry.evictBefore(kept)).isPositive();
		assertThat(this.jdbc.queryForObject("SELECT COUNT(*) FROM " + this.table + " WHERE ts = ?", Long.class, old))
			.isZero();
		assertThatExceptionOfType(RegistryException.class).isThrownBy(() -> this.registry.allocate(old, 10))
			.withMessageContaining("was evicted")
			.satisfies((ex) -> assertThat(ex.isRetryable()).isFalse());
		assertThat(this.registry.allocate(kept, 10)).isEqualTo(10);
		// Every later test uses later seconds; the watermark stays where this test put
		// it.
		assertThat(freshTimestamp()).isGreaterThan(kept);
	}

	@Test
	void tellsTheDatabasesClockWhereTheDatabaseHasOne() {
		Registry.Reservation reservation = this.registry.reserve(freshTimestamp(), 1);
		if (tellsItsClock()) {
			assertThat(reservation.registryTime()).isBetween(Instant.now().minus(Duration.ofMinutes(1)),
					Instant.now().plus(Duration.ofMinutes(1)));
		}
		else {
			assertThat(reservation.registryTime()).isNull();
		}
	}

	@Test
	void aMissingTableIsNotRetryableAndNamesTheTableAndTheWayToCreateIt() {
		R2dbcRegistry missing = registry(this.table + "_none");
		assertThatExceptionOfType(RegistryException.class).isThrownBy(() -> missing.allocate(freshTimestamp(), 1))
			.withMessageContaining("'" + this.table + "_none")
			.withMessageContaining("ensureSchema()")
			.satisfies((ex) -> assertThat(ex.isRetryable()).isFalse());
		assertThatExceptionOfType(RegistryException.class).isThrownBy(missing::verifySchema)
			.withMessageContaining("does not exist");
	}

	@Test
	void refusesToWaitOnANonBlockingThread() {
		long timestamp = freshTimestamp();
		Mono<Long> onParallel = Mono.fromCallable(() -> this.registry.allocate(timestamp, 1))
			.subscribeOn(Schedulers.parallel());
		assertThatExceptionOfType(RegistryException.class).isThrownBy(onParallel::block)
			.withMessageContaining("non-blocking thread 'parallel-")
			.satisfies((ex) -> assertThat(ex.isRetryable()).isFalse());
		assertThat(this.registry.allocate(timestamp, 1)).as("nothing was reserved by the refused call").isZero();
	}

	@Test
	void aNodeOnTheRegistryHandsOutUniqueIds() {
		// Tables of its own: the node reserves in the clock's seconds, which the other
		// tests' eviction watermark, set at made-up seconds, may be above.
		withOwnTables((own) -> {
			R2dbcRegistry registry = registry(own);
			try (CridNode node = CridNode.builder(registry).blockSize(100).threshold(50).build()) {
				node.warmUp();
				Set<Long> ids = new HashSet<>();
				for (int i = 0; i < 1_000; i++) {
					assertThat(ids.add(node.nextId())).isTrue();
				}
				assertThat(node.stats().clockSkew() != null).isEqualTo(tellsItsClock());
			}
		});
	}

}
