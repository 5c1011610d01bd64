package dev.crid.testsupport;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.LongSummaryStatistics;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import dev.crid.CridNode;
import dev.crid.Registry;
import dev.crid.RegistryException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What callers see when the network between their nodes and a database registry fails:
 * three nodes with small blocks (so they go to the registry many times a second), each
 * with two callers taking IDs without end, reach the database through a
 * {@link FaultProxy} and the connections a subclass sets up, as an application would. One
 * test per outage: a cut, refused connections, and a black hole. Each proves that
 * <ul>
 * <li>no call lasts longer than the allocation timeout and a margin, and every caller
 * ends ({@link FaultLoad} checks both): callers fail, they never hang;</li>
 * <li>an outage longer than the allocation timeout makes calls fail, each only after
 * waiting the whole timeout, once per caller, with a {@link RegistryException} that names
 * the driver's cause;</li>
 * <li>IDs flow again within {@link #RECOVERY} of the heal (about a second on a quiet
 * machine), with nothing done but the heal;</li>
 * <li>not one ID is issued twice, over everything the callers got.</li>
 * </ul>
 * Each test prints one line of figures (IDs, failures, longest call, recovery after the
 * heal). One short subclass per registry and database; {@link #run} serves a subclass's
 * own faults.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class AbstractRegistryFaultTest {

	/**
	 * From the heal to the first success after the last failure (recorded when it
	 * happens, not sampled): a second, for the node retries a failing registry at most
	 * 500 ms apart and a reconnection and a reservation take tens of milliseconds here
	 * (measured 5 to 371 ms on a quiet machine), and {@link FaultLoad#CALL_MARGIN} for a
	 * loaded one to schedule the threads that reconnect, reserve and hand out the ID
	 * (measured 1.42 s beside another build). A node that did not retry would exceed it
	 * by the allocation timeout.
	 */
	protected static final Duration RECOVERY = Duration.ofSeconds(1).plus(FaultLoad.CALL_MARGIN);

	/**
	 * Failed calls per caller an outage costs. A caller's call first waits once the IDs
	 * its node held when the fault came have run out, a moment {@code s} into an outage
	 * of length {@code O}; it waits out the allocation timeout {@code T} and fails before
	 * the heal when {@code s + T < O}; its next call, begun then, has {@code 2T - O + s}
	 * after the heal, where IDs flow again within {@link #RECOVERY}. Two would mean a
	 * caller failed at once, or a node that did not recover; a failure after the heal, a
	 * stock that lasted longer than {@link #outage()} allows for.
	 */
	private static final int FAILURES_PER_CALLER = 1;

	private static final long[] BLOCK_SIZES = { 50, 200, 500 };

	private static final int CALLERS_PER_NODE = 2;

	/**
	 * Keeps the IDs recorded to about a million per test, while the blocks still run out
	 * many times a second.
	 */
	private static final Duration PAUSE_BETWEEN_CALLS = Duration.ofNanos(20_000);

	/**
	 * Returns the database the nodes reach through the proxy.
	 * @return the database
	 */
	protected abstract TestDatabase database();

	/**
	 * Opens the registry the nodes share, reaching the database through the proxy, with
	 * the connections an application would give it; the test closes it.
	 * @param proxy the proxy in front of the database
	 * @return the registry and its connections
	 */
	protected abstract Route route(FaultProxy proxy);

	/**
	 * Returns what the driver throws, which a failure's message must name when it is in
	 * the failure's causes.
	 * @return the class of the driver's exceptions
	 */
	protected abstract Class<? extends Throwable> driverFailure();

	/**
	 * Tells whether a failure that has no driver's exception among its causes says why:
	 * by default only in a black hole, where neither a statement nor the driver's cancel
	 * is ever answered, and the node says that the registry call did not return.
	 * @param message the failure's message
	 * @param blackHole whether the fault is a black hole
	 * @return whether the failure is as expected
	 */
	protected boolean explainsFailureWithoutDriverCause(String message, boolean blackHole) {
		return blackHole && message.endsWith("the registry call did not return");
	}

	/**
	 * Returns the nodes' allocation timeout.
	 * @return the timeout; by default the node's default
	 */
	protected Duration allocationTimeout() {
		return CridNode.DEFAULT_ALLOCATION_TIMEOUT;
	}

	/**
	 * Returns how long an outage lasts: by default two seconds longer than the allocation
	 * timeout, so that callers whose nodes' stock lasts less than two seconds into it
	 * must fail during it (see {@link #FAILURES_PER_CALLER}). A busy node holds its block
	 * and the next, and grows them until each lasts a quarter of a second or more: its
	 * stock may last a second into the outage, longer on a loaded machine.
	 * @return the outage's length
	 */
	protected Duration outage() {
		return allocationTimeout().plusSeconds(2);
	}

	/**
	 * Returns a table name that no other test class or concurrent build uses.
	 * @return the table name
	 */
	protected final String tableName() {
		return ("crid_" + getClass().getSimpleName().replace("IntegrationTest", "") + "_"
				+ ProcessHandle.current().pid())
			.toLowerCase();
	}

	@Test
	void aCutFailsCallersWithinTheTimeoutAndIdsFlowAgainSoonAfterTheHeal() throws Exception {
		Result result = run("cut", (proxy, route) -> {
			proxy.cut();
			hold(outage());
		});
		result.assertOutageFailedCallersWithoutHanging(false);
		result.assertFlowingAgainWithin(RECOVERY);
	}

	@Test
	void refusedReconnectionsFailCallersWithinTheTimeoutAndIdsFlowAgainSoonAfterTheHeal() throws Exception {
		Result result = run("refuse", (proxy, route) -> {
			proxy.refuse();
			// The database accepts no new connection, and the open ones are dropped (in
			// use ones when they come back), so the next reservation needs a connection
			// that cannot be made.
			route.dropConnections();
			hold(outage());
		});
		result.assertOutageFailedCallersWithoutHanging(false);
		result.assertFlowingAgainWithin(RECOVERY);
	}

	@Test
	void aBlackHoleFailsCallersWithinTheTimeoutAndIdsFlowAgainSoonAfterTheHeal() throws Exception {
		Result result = run("black hole", (proxy, route) -> {
			proxy.blackHole();
			hold(outage());
		});
		result.assertOutageFailedCallersWithoutHanging(true);
		result.assertFlowingAgainWithin(RECOVERY);
	}

	/**
	 * Starts nodes and callers through a new proxy and route, lets IDs flow, puts the
	 * fault in place, heals the proxy, lets IDs flow again, and collects what happened,
	 * asserting what holds under every fault: IDs before and after, no failure before, no
	 * ID twice.
	 * @param fault the fault's name, for the printed figures
	 * @param action what puts the fault in place, and keeps it there as long as it lasts
	 * @return what happened
	 * @throws Exception when the fault cannot be put in place, or the callers cannot be
	 * stopped
	 */
	protected final Result run(String fault, Fault action) throws Exception {
		try (FaultProxy proxy = FaultProxy.inFrontOf(database()); Route route = route(proxy)) {
			List<CridNode> nodes = new ArrayList<>();
			try {
				for (long blockSize : BLOCK_SIZES) {
					CridNode node = CridNode.builder(route.registry())
						.blockSize(blockSize)
						.threshold(blockSize / 2)
						.allocationTimeout(allocationTimeout())
						.build();
					nodes.add(node);
					node.warmUp();
				}
				FaultLoad load = new FaultLoad(nodes, CALLERS_PER_NODE, PAUSE_BETWEEN_CALLS);
				long[] ids;
				Result result = new Result(fault, database(), allocationTimeout(), driverFailure(), this);
				try {
					await().atMost(Duration.ofSeconds(10)).until(() -> load.issued() > 10_000);
					hold(Duration.ofMillis(500));
					result.idsBeforeFault = load.issued();
					result.failuresBeforeFault = load.failures();
					long faultStarted = System.nanoTime();
					result.faultStarted = faultStarted;
					action.apply(proxy, route);
					proxy.heal();
					result.healed = System.nanoTime();
					result.faultLasted = Duration.ofNanos(result.healed - faultStarted);
					long atHeal = load.issued();
					result.idsDuringFault = atHeal - result.idsBeforeFault;
					result.failuresDuringFault = load.failures() - result.failuresBeforeFault;
					// Long enough for every caller that waited through the fault to have
					// its answer.
					await().atMost(allocationTimeout().plus(FaultLoad.CALL_MARGIN))
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

	/**
	 * Keeps a fault in place (or lets time pass) for a while: a length of time, not a
	 * wait for a result.
	 * @param duration how long
	 * @throws InterruptedException when interrupted
	 */
	protected static void hold(Duration duration) throws InterruptedException {
		TimeUnit.NANOSECONDS.sleep(duration.toNanos());
	}

	/**
	 * A registry on connections that go through the proxy, and the connections.
	 */
	public interface Route extends AutoCloseable {

		/**
		 * Returns the registry the nodes share.
		 * @return the registry
		 */
		Registry registry();

		/**
		 * Drops the pooled connections, as a pool does whose connections reached their
		 * lifetime, so that the next reservation needs a new one.
		 */
		void dropConnections();

		@Override
		void close();

		/**
		 * Returns a route of the registry, the way its connections are dropped, and the
		 * way they are closed.
		 * @param registry the registry
		 * @param dropConnections what {@link #dropConnections()} does
		 * @param close what {@link #close()} does
		 * @return the route
		 */
		static Route of(Registry registry, Runnable dropConnections, Runnable close) {
			return new Route() {

				@Override
				public Registry registry() {
					return registry;
				}

				@Override
				public void dropConnections() {
					dropConnections.run();
				}

				@Override
				public void close() {
					close.run();
				}

			};
		}

	}

	/** What a test does to the proxy, and how long. */
	@FunctionalInterface
	public interface Fault {

		/**
		 * Puts the fault in place and keeps it there as long as it lasts.
		 * @param proxy the proxy
		 * @param route the registry's connections
		 * @throws Exception when interrupted, or the fault cannot be put in place
		 */
		void apply(FaultProxy proxy, Route route) throws Exception;

	}

	/** What one run under a fault gave; printed as one line. */
	protected static final class Result {

		private final String fault;

		private final TestDatabase database;

		private final Duration allocationTimeout;

		private final Class<? extends Throwable> driverFailure;

		private final AbstractRegistryFaultTest test;

		long idsBeforeFault;

		long failuresBeforeFault;

		long idsDuringFault;

		long failuresDuringFault;

		long idsAfterHeal;

		long faultStarted;

		long healed;

		Duration faultLasted;

		long ids;

		long duplicates;

		long failures;

		Duration longestCall;

		Duration recovery;

		int callers;

		List<FaultLoad.Failure> failedCalls;

		Result(String fault, TestDatabase database, Duration allocationTimeout,
				Class<? extends Throwable> driverFailure, AbstractRegistryFaultTest test) {
			this.fault = fault;
			this.database = database;
			this.allocationTimeout = allocationTimeout;
			this.driverFailure = driverFailure;
			this.test = test;
		}

		/**
		 * Returns how many calls failed, in all.
		 * @return the count
		 */
		public long failures() {
			return this.failures;
		}

		/**
		 * Returns how long the longest call took.
		 * @return the time
		 */
		public Duration longestCall() {
			return this.longestCall;
		}

		/**
		 * Returns how many IDs the callers got while the fault lasted.
		 * @return the count
		 */
		public long idsDuringFault() {
			return this.idsDuringFault;
		}

		/**
		 * Asserts that no call took longer than the allocation timeout and the margin.
		 */
		public void assertNoCallHung() {
			assertThat(this.longestCall).as("longest call (allocation timeout %s)", this.allocationTimeout)
				.isLessThanOrEqualTo(this.allocationTimeout.plus(FaultLoad.CALL_MARGIN));
		}

		/**
		 * Asserts that callers waited out the allocation timeout and then failed, once
		 * each, with a {@link RegistryException} whose message says what the driver or
		 * the pool said (a driver's exception in its cause chain) or else explains itself
		 * ({@link AbstractRegistryFaultTest#explainsFailureWithoutDriverCause}).
		 * @param blackHole whether the fault was a black hole
		 */
		public void assertOutageFailedCallersWithoutHanging(boolean blackHole) {
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
					.isGreaterThanOrEqualTo(this.allocationTimeout);
				assertThat(failure.exception()).isInstanceOf(RegistryException.class);
				String message = String.valueOf(failure.exception().getMessage());
				Throwable cause = driverCause(failure.exception());
				if (cause != null) {
					assertThat(message).as("message of a failure caused by %s", cause).contains(cause.getMessage());
				}
				else {
					assertThat(this.test.explainsFailureWithoutDriverCause(message, blackHole))
						.as("a failure without a driver's cause: %s", failure.exception())
						.isTrue();
				}
			});
		}

		/** Returns the first driver's exception in a cause chain, or null. */
		private Throwable driverCause(Throwable failure) {
			for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
				if (this.driverFailure.isInstance(cause)) {
					return cause;
				}
			}
			return null;
		}

		/**
		 * Asserts that IDs flowed again for good within the limit after the heal.
		 * @param limit the limit
		 */
		public void assertFlowingAgainWithin(Duration limit) {
			assertThat(this.recovery).as("time from the heal until IDs flowed again for good")
				.isNotNull()
				.isLessThanOrEqualTo(limit);
		}

		/**
		 * How long into the fault the failed calls began to wait, the first and the last:
		 * how long the IDs the nodes held lasted.
		 */
		private String stockLasted() {
			LongSummaryStatistics waits = this.failedCalls.stream()
				.mapToLong((failure) -> Duration.ofNanos(failure.started() - this.faultStarted).toMillis())
				.summaryStatistics();
			return (waits.getCount() == 0) ? "none" : waits.getMin() + " to " + waits.getMax() + " ms";
		}

		@Override
		public String toString() {
			return String.format(
					"fault: %-13s database: %-10s IDs: %,d (before %,d, during %,d, after %,d)  failures: %d (during %d)  "
							+ "failed waits began after: %s  longest call: %d ms  recovery after heal: %s  duplicates: %d",
					this.fault, this.database, this.ids, this.idsBeforeFault, this.idsDuringFault, this.idsAfterHeal,
					this.failures, this.failuresDuringFault, stockLasted(), this.longestCall.toMillis(),
					(this.recovery != null) ? this.recovery.toMillis() + " ms" : "never", this.duplicates);
		}

	}

}
