package dev.crid.r2dbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;

import javax.sql.DataSource;

import io.r2dbc.spi.ConnectionFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import dev.crid.CridLayout;
import dev.crid.CridNode;
import dev.crid.LayoutMismatchException;
import dev.crid.Registry;
import dev.crid.RegistryException;
import dev.crid.sql.SqlDialect;
import dev.crid.testsupport.AbstractRegistryContractTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.entry;

/**
 * The registry contract on R2DBC, and the guards the R2DBC registry shares with the JDBC
 * one (the layout record, the eviction watermark, the database's clock, a missing table,
 * a table the Go crid made), and its own: it refuses to wait on a non-blocking thread.
 * The tables are looked at through JDBC, as another process sharing them would. One short
 * subclass per database.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractR2dbcRegistryIntegrationTest extends AbstractRegistryContractTest {

	private final String table = "crid_r2dbc_" + Long.toString(ThreadLocalRandom.current().nextLong(1L << 40), 36);

	private ConnectionFactory connectionFactory;

	private DataSource dataSource;

	private R2dbcRegistry registry;

	/**
	 * Returns the connection factory of the database under test, called once per class;
	 * {@link #close} disposes of it when it is a pool.
	 * @return the connection factory
	 */
	protected abstract ConnectionFactory createConnectionFactory();

	/**
	 * Returns a JDBC data source on the same database, called once per class; closed at
	 * the end when it can be.
	 * @return the data source
	 */
	protected abstract DataSource createDataSource();

	/**
	 * Returns the statements the registry should run on the database.
	 * @return the dialect
	 */
	protected abstract SqlDialect dialect();

	/**
	 * Returns whether the database tells its clock with each reservation.
	 * @return whether it does
	 */
	protected abstract boolean tellsItsClock();

	@BeforeAll
	void createRegistry() {
		this.connectionFactory = createConnectionFactory();
		this.dataSource = createDataSource();
		this.registry = registry(this.table);
		this.registry.ensureSchema();
	}

	@AfterAll
	void close() throws Exception {
		if (this.dataSource != null) {
			dropTables(this.table);
		}
		if (this.dataSource instanceof AutoCloseable closeable) {
			closeable.close();
		}
		if (this.connectionFactory instanceof Disposable pool) {
			pool.dispose();
		}
	}

	@Override
	protected Registry registry() {
		return this.registry;
	}

	@Override
	protected int reservationsPerThread() {
		return 100;
	}

	@Override
	protected long storedNextSequence(long timestamp) {
		return queryForLong("SELECT next_seq FROM " + this.table + " WHERE ts = " + timestamp);
	}

	/**
	 * A registry on the given table that keeps every row: the tests reserve seconds up to
	 * decades ahead. Its query timeout is six times the default: other builds share this
	 * machine's two cores, and a driver's first connection in a cold JVM has been seen to
	 * take 5 s there; no test here measures latency.
	 */
	private R2dbcRegistry registry(String tableName) {
		return R2dbcRegistry.builder(this.connectionFactory)
			.tableName(tableName)
			.queryTimeout(Duration.ofSeconds(30))
			.retention(Duration.ZERO)
			.build();
	}

	@Test
	void namesItsKindAndInItsDetailsItsTableAndDialect() {
		assertThat(this.registry.kind()).isEqualTo("r2dbc");
		assertThat(this.registry.details()).containsExactly(entry("table", this.table),
				entry("dialect", dialect().id()));
		assertThat(this.registry.schemaScript()).isEqualTo(dialect().schemaScript());
		assertThat(this.registry.schema()).hasSize(2).allSatisfy((sql) -> assertThat(sql).contains(this.table));
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
			assertThat(queryForLong("SELECT timestamp_bits FROM " + own + "_meta WHERE id = 1"))
				.isEqualTo(CridLayout.DEFAULT.timestampBits());
		});
	}

	@Test
	void anEvictedSecondIsRefusedFromThenOnAndItsRowsAreGone() {
		withOwnTables((own) -> {
			R2dbcRegistry evicting = registry(own);
			for (long second = 100; second < 106; second++) {
				evicting.allocate(second, 10);
			}
			assertThat(evicting.evictBefore(103)).as("rows of seconds 100, 101 and 102").isEqualTo(3);
			assertThat(queryForLong("SELECT COUNT(*) FROM " + own + " WHERE ts < 103")).isZero();
			for (R2dbcRegistry registry : List.of(evicting, registry(own))) {
				assertThatExceptionOfType(RegistryException.class).isThrownBy(() -> registry.allocate(101, 10))
					.withMessageContaining("every second before 103 was evicted")
					.satisfies((ex) -> assertThat(ex.isRetryable()).isFalse());
			}
			assertThat(evicting.allocate(103, 10)).isEqualTo(10);
		});
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
			.withMessageContaining(dialect().schemaScript())
			.satisfies((ex) -> assertThat(ex.isRetryable()).isFalse());
		assertThatExceptionOfType(RegistryException.class).isThrownBy(missing::check)
			.withMessageContaining("does not exist")
			.satisfies((ex) -> assertThat(ex.isRetryable()).isFalse());
	}

	@Test
	void addsTheMetadataTableBesideATableTheGoCridMadeAndContinuesItsSeconds() {
		String goMade = this.table + "_go";
		try {
			execute("CREATE TABLE " + goMade + " (ts BIGINT NOT NULL PRIMARY KEY, next_seq BIGINT NOT NULL)");
			execute("INSERT INTO " + goMade + " (ts, next_seq) VALUES (5, 700)");
			R2dbcRegistry onGoTable = registry(goMade);
			assertThat(onGoTable.verifySchema()).as("the metadata table is there").isFalse();
			assertThat(onGoTable.allocate(5, 10)).isEqualTo(700);
			assertThat(onGoTable.verifySchema()).isTrue();
			onGoTable.checkLayout(CridLayout.DEFAULT);
			assertThat(queryForLong("SELECT sequence_bits FROM " + goMade + "_meta WHERE id = 1"))
				.isEqualTo(CridLayout.DEFAULT.sequenceBits());
		}
		finally {
			dropTables(goMade);
		}
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
		// tests' made-up seconds might be beside.
		withOwnTables((own) -> {
			try (CridNode node = CridNode.builder(registry(own)).blockSize(100).threshold(50).build()) {
				node.warmUp();
				Set<Long> ids = new HashSet<>();
				for (int i = 0; i < 1_000; i++) {
					assertThat(ids.add(node.nextId())).isTrue();
				}
				assertThat(node.stats().clockSkew() != null).isEqualTo(tellsItsClock());
			}
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
			dropTables(own);
		}
	}

	private void dropTables(String tableName) {
		execute("DROP TABLE IF EXISTS " + tableName);
		execute("DROP TABLE IF EXISTS " + tableName + "_meta");
	}

	private void execute(String sql) {
		try (Connection connection = this.dataSource.getConnection();
				Statement statement = connection.createStatement()) {
			statement.execute(sql);
		}
		catch (SQLException ex) {
			throw new IllegalStateException(sql, ex);
		}
	}

	private long queryForLong(String sql) {
		try (Connection connection = this.dataSource.getConnection();
				PreparedStatement statement = connection.prepareStatement(sql);
				ResultSet result = statement.executeQuery()) {
			assertThat(result.next()).as("a row from %s", sql).isTrue();
			return result.getLong(1);
		}
		catch (SQLException ex) {
			throw new IllegalStateException(sql, ex);
		}
	}

}
