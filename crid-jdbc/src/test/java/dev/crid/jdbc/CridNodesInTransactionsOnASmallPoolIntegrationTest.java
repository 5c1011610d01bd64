package dev.crid.jdbc;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import dev.crid.CridNode;
import dev.crid.RegistryException;
import dev.crid.testsupport.FaultLoad;
import dev.crid.testsupport.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole stack on a pool too small for it, on PostgreSQL: threads inside transactions
 * that hold every connection of the pool. A node that must reserve a block then cannot
 * get a connection: its callers fail within the allocation timeout, none hangs, and once
 * the transactions end the same nodes serve distinct IDs. A node that reserved its first
 * block beforehand ({@code warmUp()}, as Spring Boot does at start-up) serves its first
 * callers without a connection at all.
 */
class CridNodesInTransactionsOnASmallPoolIntegrationTest {

	private static final int POOL_SIZE = 2;

	private static final Duration ALLOCATION_TIMEOUT = Duration.ofSeconds(1);

	private final String table = "crid_nodes_small_pool_" + ProcessHandle.current().pid();

	private HikariDataSource dataSource;

	private JdbcTemplateRegistry registry;

	private TransactionTemplate transactions;

	private final List<CridNode> nodes = new ArrayList<>();

	private final ExecutorService executor = Executors.newFixedThreadPool(8);

	@BeforeEach
	void createTable() {
		this.dataSource = TestDatabase.POSTGRESQL.dataSource(POOL_SIZE);
		this.registry = JdbcTemplateRegistry.builder(new JdbcTemplate(this.dataSource)).tableName(this.table).build();
		this.registry.ensureSchema();
		this.transactions = new TransactionTemplate(new DataSourceTransactionManager(this.dataSource));
	}

	@AfterEach
	void dropTable() {
		this.executor.shutdownNow();
		this.nodes.forEach(CridNode::close);
		TestDatabase.dropRegistryTables(this.dataSource, this.table);
		this.dataSource.close();
	}

	@Test
	void nodesFailWithinTheTimeoutWhileTransactionsHoldEveryConnectionThenServeDistinctIds() throws Exception {
		List<CridNode> cold = List.of(node(), node());
		List<Object> outcomes = inTransactionsHoldingEveryConnection(cold);
		assertThat(outcomes).as("every caller waited for a connection that no transaction gave up")
			.allSatisfy((outcome) -> assertThat(outcome).isInstanceOfSatisfying(Outcome.class, (failure) -> {
				assertThat(failure.value()).isInstanceOf(RegistryException.class)
					.asString()
					.contains("within the allocation timeout of PT1S");
				assertThat(failure.took()).isGreaterThanOrEqualTo(ALLOCATION_TIMEOUT)
					.isLessThan(ALLOCATION_TIMEOUT.plus(FaultLoad.CALL_MARGIN));
			}));
		// The transactions are over: every node serves, from 8 threads, with blocks of 10
		// IDs.
		List<CridNode> all = new ArrayList<>(cold);
		for (int i = 0; i < 6; i++) {
			all.add(node());
		}
		List<Future<long[]>> takers = new ArrayList<>();
		for (CridNode node : all) {
			takers.add(this.executor.submit(() -> take(node, 500)));
		}
		long[] ids = new long[0];
		for (Future<long[]> taker : takers) {
			long[] taken = taker.get(60, TimeUnit.SECONDS);
			long[] merged = Arrays.copyOf(ids, ids.length + taken.length);
			System.arraycopy(taken, 0, merged, ids.length, taken.length);
			ids = merged;
		}
		assertThat(ids).hasSize(8 * 500);
		assertThat(Arrays.stream(ids).distinct().count()).as("distinct IDs").isEqualTo(8 * 500);
	}

	@Test
	void warmedUpNodesServeCallersInTransactionsWithoutAConnection() throws Exception {
		List<CridNode> warm = List.of(node(), node());
		warm.forEach(CridNode::warmUp);
		List<Object> outcomes = inTransactionsHoldingEveryConnection(warm);
		assertThat(outcomes)
			.allSatisfy((outcome) -> assertThat(outcome).isInstanceOfSatisfying(Outcome.class, (served) -> {
				assertThat(served.value()).isInstanceOf(Long.class);
				assertThat(served.took()).isLessThan(ALLOCATION_TIMEOUT);
			}));
		assertThat(outcomes).extracting((outcome) -> ((Outcome) outcome).value()).doesNotHaveDuplicates();
		assertThat(warm).allSatisfy((node) -> assertThat(node.stats().stalls()).isZero());
	}

	/**
	 * Runs one caller per node, each in a transaction holding one of the pool's
	 * connections, all at once, and keeps every transaction open until every caller is
	 * done; returns each caller's ID or failure.
	 */
	private List<Object> inTransactionsHoldingEveryConnection(List<CridNode> callers) throws Exception {
		assertThat(callers).hasSize(POOL_SIZE);
		CyclicBarrier allInTransactions = new CyclicBarrier(POOL_SIZE);
		CyclicBarrier allDone = new CyclicBarrier(POOL_SIZE);
		List<Future<Object>> futures = new ArrayList<>();
		for (CridNode node : callers) {
			futures.add(this.executor.submit(() -> this.transactions.execute((status) -> {
				new JdbcTemplate(this.dataSource).queryForObject("SELECT 1", Integer.class);
				await(allInTransactions);
				try {
					return timed(node::nextId);
				}
				finally {
					await(allDone);
				}
			})));
		}
		List<Object> outcomes = new ArrayList<>();
		for (Future<Object> future : futures) {
			outcomes.add(future.get(30, TimeUnit.SECONDS));
		}
		return outcomes;
	}

	private CridNode node() {
		CridNode node = CridNode.builder(this.registry)
			.blockSize(10)
			.threshold(5)
			.allocationTimeout(ALLOCATION_TIMEOUT)
			.build();
		this.nodes.add(node);
		return node;
	}

	private static long[] take(CridNode node, int count) {
		long[] ids = new long[count];
		for (int i = 0; i < count; i++) {
			ids[i] = node.nextId();
		}
		return ids;
	}

	private static Outcome timed(LongSupplier call) {
		long started = System.nanoTime();
		try {
			return new Outcome(call.getAsLong(), Duration.ofNanos(System.nanoTime() - started));
		}
		catch (RegistryException ex) {
			return new Outcome(ex, Duration.ofNanos(System.nanoTime() - started));
		}
	}

	private static void await(CyclicBarrier barrier) {
		try {
			barrier.await(10, TimeUnit.SECONDS);
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	/** What a call returned (an ID) or threw, and how long it took. */
	private record Outcome(Object value, Duration took) {
	}

}
