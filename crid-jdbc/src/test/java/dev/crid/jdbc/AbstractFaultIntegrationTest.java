package dev.crid.jdbc;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.crid.CridNode;
import dev.crid.RegistryException;
import dev.crid.testsupport.FaultProxy;
import dev.crid.testsupport.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What callers see when the network between their nodes and the registry's database
 * fails: three nodes with small blocks (so they go to the registry many times a second),
 * each with two callers taking IDs without end, reach the database through a
 * {@link FaultProxy} and a HikariCP pool set up as the README recommends (a 2 s
 * connection timeout, a 1 s validation timeout, a 2 s query timeout). One test per fault:
 * a cut, refused reconnections, a flapping link, latency, and a black hole. Each proves
 * that
 * <ul>
 * <li>no call lasts longer than the allocation timeout and a margin, and every caller
 * ends ({@link FaultLoad} checks both): callers fail, they never hang;</li>
 * <li>an outage longer than the allocation timeout makes calls fail, each only after
 * waiting the whole timeout, once per caller, with a {@link RegistryException} that names
 * the driver's cause; a slow link makes none fail and costs a caller no more than
 * {@value #SLOW_LINK_LONGEST_CALL_MILLIS} ms;</li>
 * <li>IDs flow again within a second of the heal, where that is the promise;</li>
 * <li>not one ID is issued twice, over everything the callers got.</li>
 * </ul>
 * Each test prints one line of figures (IDs, failures, longest call, recovery after the
 * heal). One short subclass per database.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class AbstractFaultIntegrationTest {

	private static final Duration ALLOCATION_TIMEOUT = CridNode.DEFAULT_ALLOCATION_TIMEOUT;

	/** Longer than the allocation timeout, so that callers must fail during it. */
	private static final Duration OUTAGE = Duration.ofSeconds(6);

	/**
	 * Failed calls per caller an outage costs: every caller's call waits out the
	 * allocation timeout (5 s) and fails, and its next call, begun 5 s into the 6 s
	 * outage, has 4 s after the heal, where IDs flow again within {@link #RECOVERY}. Two
	 * would mean a caller failed at once, or a node that did not recover.
	 */
	private static final int FAILURES_PER_CALLER = 1;

	/**
	 * The longest call with 20 ms of latency: a node reserves ahead (at half its block),
	 * so a caller waits only when a block runs out before the next one arrived, for what
	 * is left of a reservation of a few round trips (measured 30 to 170 ms on two cores);
	 * the rest is room for a loaded machine. A node that waited for a reservation on
	 * every block, or retried, would take longer.
	 */
	private static final long SLOW_LINK_LONGEST_CALL_MILLIS = 250;

	private static final Duration SLOW_LINK_LONGEST_CALL = Duration.ofMillis(SLOW_LINK_LONGEST_CALL_MILLIS);

	/**
	 * From the heal to the first success after the last failure (recorded when it
	 * happens, not sampled): the node retries a failing registry at most 500 ms apart,
	 * and a reconnection and a reservation take tens of milliseconds here (measured 5 to
	 * 371 ms); the rest is room for a loaded machine.
	 */
	private static final Duration RECOVERY = Duration.ofSeconds(1);

	private static final long[] BLOCK_SIZES = { 50, 200, 500 };

	private static final int CALLERS_PER_NODE = 2;

	/**
	 * Keeps the IDs recorded to about a million per test, while the blocks still run out
	 * many times a second.
	 */
	private static final Duration PAUSE_BETWEEN_CALLS = Duration.ofNanos(20_000);

	private final String table = "crid_" + getClass().getSimpleName().replace("IntegrationTest", "").toLowerCase() + "_"
			+ ProcessHandle.current().pid();

	private HikariDataSource admin;

	/**
	 * Returns the database the nodes reach through the proxy.
	 * @return the database
	 */
	protected abstract TestDatabase database();

	@BeforeAll
	void createTable() {
		this.admin = database().dataSource(2);
		JdbcTemplateRegistry.builder(new JdbcTemplate(this.admin)).tableName(this.table).build().ensureSchema();
	}

	@AfterAll
	void dropTable() {
		if (this.admin != null) {
			TestDatabase.dropRegistryTables(this.admin, this.table);
			this.admin.close();
		}
	}

	@Test
	void aCutFailsCallersWithinTheTimeoutAndIdsFlowWithinASecondOfTheHeal() throws Exception {
		Result result = run("cut", (proxy, pool) -> {
			proxy.cut();
			hold(OUTAGE);
		});
		result.assertOutageFailedCallersWithoutHanging(false);
		result.assertFlowingAgainWithin(RECOVERY);
	}

	@Test
	void refusedReconnectionsFailCallersWithinTheTimeoutAndIdsFlowWithinASecondOfTheHeal() throws Exception {
		Result result = run("refuse", (proxy, pool) -> {
			proxy.refuse();
			// The database accepts no new connection; the pool drops the ones it has (in
			// use ones when they come back), so the next allocation needs a connection
			// that cannot be made.
			pool.getHikariPoolMXBean().softEvictConnections();
			hold(OUTAGE);
		});
		result.assertOutageFailedCallersWithoutHanging(false);
		result.assertFlowingAgainWithin(RECOVERY);
	}

	@Test
	void aFlappingLinkCostsCallersDelaysNotErrors() throws Exception {
		Result result = run("flap", (proxy, pool) -> {
			for (int i = 0; i < 3; i++) {
				proxy.cut();
				hold(Duration.ofSeconds(1));
				proxy.heal();
				hold(Duration.ofSeconds(1));
			}
		});
		result.assertNoCallHung();
		assertThat(result.failures).as("failed calls while the link flapped (outages of 1 s, below the timeout)")
			.isZero();
		result.assertFlowingAgainWithin(RECOVERY);
	}

	@Test
	void latencyCostsCallersNothing() throws Exception {
		Result result = run("latency 20 ms", (proxy, pool) -> {
			proxy.latency(Duration.ofMillis(20));
			hold(Duration.ofSeconds(4));
			proxy.latency(Duration.ZERO);
		});
		assertThat(result.longestCall).as("longest call with 20 ms of latency")
			.isLessThanOrEqualTo(SLOW_LINK_LONGEST_CALL);
		assertThat(result.failures).as("failed calls with 20 ms of latency").isZero();
		assertThat(result.idsDuringFault).as("IDs issued while the link was slow").isPositive();
	}

	@Test
	void aBlackHoleFailsCallersWithinTheTimeoutAndIdsFlowWithinASecondOfTheHeal() throws Exception {
		Result result = run("black hole", (proxy, pool) -> {
			proxy.blackHole();
			hold(OUTAGE);
		});
		// A statement sent into the black hole is never answered, and the driver's cancel
		// request goes the same way: the node gives up on the call, and says so.
		result.assertOutageFailedCallersWithoutHanging(true);
		result.assertFlowingAgainWithin(RECOVERY);
	}

	/**
	 * Starts nodes and callers through a new proxy and pool, lets IDs flow, puts the
	 * fault in place, heals the proxy, lets IDs flow again, and collects what happened.
	 */
	private Result run(String fault, Fault action) throws Exception {
		TestDatabase.Endpoint endpoint = database().endpoint();
		try (FaultProxy proxy = FaultProxy.inFrontOf(database()); HikariDataSource pool = pool(proxy, endpoint)) {
			JdbcTemplateRegistry registry = JdbcTemplateRegistry.builder(new JdbcTemplate(pool))
				.tableName(this.table)
				.queryTimeout(Duration.ofSeconds(2))
				.build();
			List<CridNode> nodes = new ArrayList<>();
			try {
				for (long blockSize : BLOCK_SIZES) {
					CridNode node = CridNode.builder(registry)
						.blockSize(blockSize)
						.threshold(blockSize / 2)
						.allocationTimeout(ALLOCATION_TIMEOUT)
						.build();
					nodes.add(node);
					node.warmUp();
				}
				FaultLoad load = new FaultLoad(nodes, CALLERS_PER_NODE, PAUSE_BETWEEN_CALLS);
				long[] ids;
				Result result = new Result(fault, database());
				try {
					await().atMost(Duration.ofSeconds(10)).until(() -> load.issued() > 10_000);
					hold(Duration.ofMillis(500));
					result.idsBeforeFault = load.issued();
					result.failuresBeforeFault = load.failures();
					long faultStarted = System.nanoTime();
					action.apply(proxy, pool);
					proxy.heal();
					result.healed = System.nanoTime();
					result.faultLasted = Duration.ofNanos(result.healed - faultStarted);
					long atHeal = load.issued();
					result.idsDuringFault = atHeal - result.idsBeforeFault;
					result.failuresDuringFault = load.failures() - result.failuresBeforeFault;
					// Long enough for every caller that waited through the fault to have
					// its answer.
					await().atMost(ALLOCATION_TIMEOUT.plus(FaultLoad.CALL_MARGIN))
						.until(() -> load.issued() > atHeal + 10_000);
					hold(Duration.ofSeconds(1));
					result.idsAfterHeal = load.issued() - atHeal;
				}
				finally {
					ids = load.stop();
				}
				result.ids = ids.length;
				result.duplicates = FaultLoad.duplicates(ids);
				result.failures = load.failures();
				result.callers = load.callers();
				result.failedCalls = load.failedCalls();
				result.longestCall = load.longestCall();
				result.recovery = load.flowingAgainAfter(result.healed);
				System.out.println(result);
				assertThat(result.idsBeforeFault).as("IDs issued before the fault").isPositive();
				assertThat(result.failuresBeforeFault).as("failed calls before the fault").isZero();
				assertThat(result.idsAfterHeal).as("IDs issued after the heal").isPositive();
				assertThat(result.duplicates).as("IDs issued twice").isZero();
				return result;
			}
			finally {
				nodes.forEach(CridNode::close);
			}
		}
	}

	private static HikariDataSource pool(FaultProxy proxy, TestDatabase.Endpoint endpoint) {
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(proxy.jdbcUrl());
		config.setUsername(endpoint.username());
		config.setPassword(endpoint.password());
		config.setMaximumPoolSize(BLOCK_SIZES.length + 1);
		config.setConnectionTimeout(TestDatabase.POOL_CONNECTION_TIMEOUT.toMillis());
		config.setValidationTimeout(Duration.ofSeconds(1).toMillis());
		config.setPoolName("crid-fault-test");
		return new HikariDataSource(config);
	}

	/**
	 * Keeps a fault in place (or lets time pass) for a while: a length of time, not a
	 * wait for a result.
	 */
	private static void hold(Duration duration) throws InterruptedException {
		TimeUnit.NANOSECONDS.sleep(duration.toNanos());
	}

	@FunctionalInterface
	private interface Fault {

		void apply(FaultProxy proxy, HikariDataSource pool) throws Exception;

	}

	/** What one run under a fault gave; printed as one line. */
	private static final class Result {

		private final String fault;

		private final TestDatabase database;

		long idsBeforeFault;

		long failuresBeforeFault;

		long idsDuringFault;

		long failuresDuringFault;

		long idsAfterHeal;

		long healed;

		Duration faultLasted;

		long ids;

		long duplicates;

		long failures;

		Duration longestCall;

		Duration recovery;

		int callers;

		List<FaultLoad.Failure> failedCalls;

		Result(String fault, TestDatabase database) {
			this.fault = fault;
			this.database = database;
		}

		void assertNoCallHung() {
			assertThat(this.longestCall).as("longest call (allocation timeout %s)", ALLOCATION_TIMEOUT)
				.isLessThanOrEqualTo(ALLOCATION_TIMEOUT.plus(FaultLoad.CALL_MARGIN));
		}

		/**
		 * Callers waited out the allocation timeout and then failed, once each, with a
		 * {@link RegistryException} whose message says what the driver or the pool said
		 * (an {@link SQLException} in its cause chain) or, where calls may hang, that the
		 * registry call did not return.
		 */
		void assertOutageFailedCallersWithoutHanging(boolean callsMayHang) {
			assertNoCallHung();
			assertThat(this.failuresDuringFault).as("failed calls during an outage of %s", this.faultLasted)
				.isPositive();
			assertThat(this.failures).as("failed calls in all").isEqualTo(this.failuresDuringFault);
			Map<Integer, Long> perCaller = this.failedCalls.stream()
				.collect(Collectors.groupingBy(FaultLoad.Failure::caller, TreeMap::new, Collectors.counting()));
			assertThat(perCaller).as("failed calls per caller")
				.hasSize(this.callers)
				.allSatisfy((caller, failed) -> assertThat(failed).as("failed calls of caller %d", caller)
					.isEqualTo(FAILURES_PER_CALLER));
			assertThat(this.failedCalls).hasSize((int) this.failures).allSatisfy((failure) -> {
				// A node that gave up at once, rather than waiting for the registry to
				// come back, fails this.
				assertThat(failure.took()).as("how long the failed call of caller %d waited", failure.caller())
					.isGreaterThanOrEqualTo(ALLOCATION_TIMEOUT);
				assertThat(failure.exception()).isInstanceOf(RegistryException.class);
				String message = failure.exception().getMessage();
				SQLException cause = sqlCause(failure.exception());
				if (cause != null) {
					assertThat(message).as("message of a failure caused by %s", cause).contains(cause.getMessage());
				}
				else {
					assertThat(callsMayHang).as("a failure without a driver's cause: %s", failure.exception()).isTrue();
					assertThat(message).endsWith("the registry call did not return");
				}
			});
		}

		/**
		 * Returns the first {@link SQLException} in a cause chain (what the driver or the
		 * pool said), or null.
		 */
		private static SQLException sqlCause(Throwable failure) {
			for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
				if (cause instanceof SQLException sql) {
					return sql;
				}
			}
			return null;
		}

		void assertFlowingAgainWithin(Duration limit) {
			assertThat(this.recovery).as("time from the heal until IDs flowed again for good")
				.isNotNull()
				.isLessThanOrEqualTo(limit);
		}

		@Override
		public String toString() {
			return String.format(
					"fault: %-13s database: %-10s IDs: %,d (before %,d, during %,d, after %,d)  failures: %d (during %d)  "
							+ "longest call: %d ms  recovery after heal: %s  duplicates: %d",
					this.fault, this.database, this.ids, this.idsBeforeFault, this.idsDuringFault, this.idsAfterHeal,
					this.failures, this.failuresDuringFault, this.longestCall.toMillis(),
					(this.recovery != null) ? this.recovery.toMillis() + " ms" : "never", this.duplicates);
		}

	}

}
