package dev.crid.jdbc;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.crid.CridLayout;
import dev.crid.CridNode;
import dev.crid.RegistryException;
import dev.crid.testsupport.SteppedClock;
import dev.crid.testsupport.TestDatabase;
import dev.crid.testsupport.FaultLoad;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * A node whose clock is stepped an hour forwards, then an hour backwards, while other
 * nodes on the same registry table keep issuing IDs, on a real database (which tells the
 * nodes its clock). Proves that
 * <ul>
 * <li>the node refuses to serve while its clock is further than {@code maxClockSkew} from
 * the database's, with a message that says so and a {@code stats().clockSkew()} of about
 * the hour, and serves again once its clock is right;</li>
 * <li>with the guard effectively off (a {@code maxClockSkew} above the step), a node
 * whose clock steps back an hour lands in seconds another node already took blocks from,
 * and the registry alone keeps every ID unique: it counts per second, so a second seen
 * twice only gets more blocks;</li>
 * <li>every ID the guarded node issued, before, during and after the steps, carries a
 * second within {@code maxClockSkew} of the wall clock when it was issued: the node
 * stamps no ID with its wrong time;</li>
 * <li>and in both, not one ID repeats among everything every node issued.</li>
 * </ul>
 * Retention and eviction play no part at an hour: the registry evicts seconds older than
 * its retention (a day by default), counted back from the second just reserved or the
 * database's own second, whichever is earlier. A node stepped further back than the
 * retention would be refused (its seconds are evicted; the refusal is not retried), never
 * given a block twice; a node stepped far ahead evicts nothing the others still use,
 * since the database's clock bounds what it evicts. The skew guard (a minute by default)
 * stops a node long before either. One short subclass per database.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class AbstractClockStepIntegrationTest {

	private static final Duration STEP = Duration.ofHours(1);

	/**
	 * Short, so that each refused call returns soon; the other nodes keep the default.
	 */
	private static final Duration STEPPED_NODE_TIMEOUT = Duration.ofSeconds(1);

	private static final Duration PAUSE_BETWEEN_CALLS = Duration.ofNanos(20_000);

	private final String table = "crid_" + getClass().getSimpleName().replace("IntegrationTest", "").toLowerCase() + "_"
			+ ProcessHandle.current().pid();

	private HikariDataSource dataSource;

	private JdbcTemplateRegistry registry;

	private final List<CridNode> nodes = new ArrayList<>();

	/**
	 * Returns the database the nodes share.
	 * @return the database
	 */
	protected abstract TestDatabase database();

	@BeforeAll
	void createTable() {
		this.dataSource = database().dataSource(6);
		this.registry = JdbcTemplateRegistry.builder(new JdbcTemplate(this.dataSource)).tableName(this.table).build();
		this.registry.ensureSchema();
	}

	@AfterEach
	void closeNodes() {
		this.nodes.forEach(CridNode::close);
		this.nodes.clear();
	}

	@AfterAll
	void dropTable() {
		if (this.dataSource != null) {
			TestDatabase.dropRegistryTables(this.dataSource, this.table);
			this.dataSource.close();
		}
	}

	@Test
	void aNodeWhoseClockIsAnHourOffRefusesToServeUntilItIsRightAgain() throws Exception {
		SteppedClock clock = new SteppedClock(Duration.ZERO);
		CridNode stepped = node(100, clock, CridNode.DEFAULT_MAX_CLOCK_SKEW, STEPPED_NODE_TIMEOUT);
		FaultLoad others = new FaultLoad(List.of(node(100, null, CridNode.DEFAULT_MAX_CLOCK_SKEW, null),
				node(300, null, CridNode.DEFAULT_MAX_CLOCK_SKEW, null)), 2, PAUSE_BETWEEN_CALLS);
		IssuedIds steppedIds = new IssuedIds();
		long[] othersIds;
		String[] refusals = new String[2];
		Duration[] skews = new Duration[2];
		Duration[] servingAgainAfter = new Duration[2];
		try {
			take(stepped, 1_000, steppedIds);
			Duration[] steps = { STEP, STEP.negated() };
			for (int i = 0; i < steps.length; i++) {
				clock.offset(steps[i]);
				RegistryException refused = takeUntilRefused(stepped, steppedIds);
				refusals[i] = refused.getMessage();
				skews[i] = stepped.stats().clockSkew();
				long fixed = System.nanoTime();
				clock.offset(Duration.ZERO);
				takeUntilServed(stepped, steppedIds);
				servingAgainAfter[i] = Duration.ofNanos(System.nanoTime() - fixed);
				take(stepped, 1_000, steppedIds);
			}
		}
		finally {
			othersIds = others.stop();
		}
		long[] all = LongStream.concat(Arrays.stream(othersIds), Arrays.stream(steppedIds.ids())).sorted().toArray();
		System.out
			.printf("clock stepped +1 h / -1 h with the guard on, %s: IDs: %,d (stepped node %,d), skew measured: "
					+ "%s / %s, serving again after the clock was right: %d ms / %d ms, failures of the other nodes: %d, "
					+ "duplicates: %d%n", database(), all.length, steppedIds.size(), skews[0], skews[1],
					servingAgainAfter[0].toMillis(), servingAgainAfter[1].toMillis(), others.failures(),
					FaultLoad.duplicates(all));
		assertThat(refusals[0]).as("refusal with the clock an hour ahead")
			.contains("ahead of")
			.contains("(maxClockSkew)");
		assertThat(refusals[1]).as("refusal with the clock an hour behind")
			.contains("behind")
			.contains("(maxClockSkew)");
		// The skew is the database's clock minus the node's: negative while the node is
		// ahead.
		assertThat(skews[0]).isBetween(STEP.negated().minusMinutes(1), STEP.negated().plusMinutes(1));
		assertThat(skews[1]).isBetween(STEP.minusMinutes(1), STEP.plusMinutes(1));
		assertThat(stepped.stats().clockSkew().abs()).as("skew once the clock is right")
			.isLessThan(Duration.ofSeconds(5));
		assertThat(others.failures()).as("failed calls of the nodes whose clocks were right").isZero();
		assertThat(othersIds).as("IDs from the nodes whose clocks were right").isNotEmpty();
		assertThat(FaultLoad.duplicates(all)).as("IDs issued twice").isZero();
		steppedIds.assertStampedWithin(stepped, CridNode.DEFAULT_MAX_CLOCK_SKEW);
	}

	@Test
	void withTheGuardOffTheRegistryAloneKeepsIdsUniqueWhenAClockStepsBackAnHour() throws Exception {
		Duration guardOff = STEP.multipliedBy(2);
		// A node whose clock lags almost the hour: it takes blocks in the seconds the
		// stepped node lands in, a few seconds before it does.
		CridNode lagging = node(100, new SteppedClock(STEP.negated().plusSeconds(5)), guardOff, null);
		SteppedClock clock = new SteppedClock(Duration.ZERO);
		CridNode stepped = node(100, clock, guardOff, null);
		FaultLoad others = new FaultLoad(List.of(node(100, null, guardOff, null), node(300, null, guardOff, null)), 2,
				PAUSE_BETWEEN_CALLS);
		FaultLoad laggingLoad = new FaultLoad(List.of(lagging), 2, PAUSE_BETWEEN_CALLS);
		FaultLoad steppedLoad = new FaultLoad(List.of(stepped), 2, PAUSE_BETWEEN_CALLS);
		long[] othersIds;
		long[] laggingIds;
		long[] steppedIds;
		try {
			hold(Duration.ofSeconds(6));
			clock.offset(STEP.negated());
			hold(Duration.ofSeconds(3));
			clock.offset(Duration.ZERO);
			hold(Duration.ofSeconds(1));
		}
		finally {
			othersIds = others.stop();
			laggingIds = laggingLoad.stop();
			steppedIds = steppedLoad.stop();
		}
		Set<Long> laggingSeconds = seconds(laggingIds);
		Set<Long> sharedSeconds = seconds(steppedIds);
		sharedSeconds.retainAll(laggingSeconds);
		long[] all = LongStream
			.concat(LongStream.concat(Arrays.stream(othersIds), Arrays.stream(laggingIds)), Arrays.stream(steppedIds))
			.sorted()
			.toArray();
		long failures = others.failures() + laggingLoad.failures() + steppedLoad.failures();
		System.out.printf(
				"clock stepped -1 h with the guard off, %s: IDs: %,d (stepped node %,d, lagging node %,d), "
						+ "seconds both took blocks in: %d, failures: %d, duplicates: %d%n",
				database(), all.length, steppedIds.length, laggingIds.length, sharedSeconds.size(), failures,
				FaultLoad.duplicates(all));
		assertThat(sharedSeconds).as("seconds an hour back in which the stepped node took blocks after another node")
			.isNotEmpty();
		assertThat(failures).as("failed calls, with the guard off").isZero();
		assertThat(FaultLoad.duplicates(all)).as("IDs issued twice").isZero();
	}

	private CridNode node(long blockSize, SteppedClock clock, Duration maxClockSkew, Duration allocationTimeout) {
		CridNode.Builder builder = CridNode.builder(this.registry)
			.blockSize(blockSize)
			.threshold(blockSize / 2)
			.maxClockSkew(maxClockSkew);
		if (clock != null) {
			builder.clock(clock);
		}
		if (allocationTimeout != null) {
			builder.allocationTimeout(allocationTimeout);
		}
		CridNode node = builder.build();
		this.nodes.add(node);
		node.warmUp();
		return node;
	}

	private static void take(CridNode node, int count, IssuedIds ids) {
		for (int i = 0; i < count; i++) {
			ids.take(node);
		}
	}

	/**
	 * Takes IDs (what the node holds from before the step) until the node refuses to
	 * serve.
	 */
	private static RegistryException takeUntilRefused(CridNode node, IssuedIds ids) {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (System.nanoTime() < deadline) {
			try {
				ids.take(node);
			}
			catch (RegistryException ex) {
				return ex;
			}
		}
		return fail("the node with a clock an hour off still served IDs after 10 s: " + node.stats());
	}

	private static void takeUntilServed(CridNode node, IssuedIds ids) {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		RegistryException last = null;
		while (System.nanoTime() < deadline) {
			try {
				ids.take(node);
				return;
			}
			catch (RegistryException ex) {
				last = ex;
			}
		}
		fail("the node did not serve again within 10 s of its clock being right: " + last);
	}

	private static Set<Long> seconds(long[] ids) {
		return Arrays.stream(ids).map(CridLayout.DEFAULT::timestampOf).boxed().collect(Collectors.toSet());
	}

	/**
	 * IDs taken one at a time, each with the wall clock's time just before and just after
	 * its call.
	 */
	private static final class IssuedIds {

		private final List<long[]> taken = new ArrayList<>();

		void take(CridNode node) {
			long before = System.currentTimeMillis();
			long id = node.nextId();
			this.taken.add(new long[] { id, before, System.currentTimeMillis() });
		}

		int size() {
			return this.taken.size();
		}

		long[] ids() {
			return this.taken.stream().mapToLong((entry) -> entry[0]).toArray();
		}

		/**
		 * Checks that each ID's second lies within {@code skew} of the wall clock during
		 * its call (an ID's second is that of its block, reserved at most a few seconds
		 * before here, and truncated to the second: one second more is allowed below).
		 */
		void assertStampedWithin(CridNode node, Duration skew) {
			assertThat(this.taken).as("IDs of the stepped node").isNotEmpty().allSatisfy((entry) -> {
				Instant stamped = node.parser().parse(entry[0]).timestamp();
				assertThat(stamped).as("second of ID %d", entry[0])
					.isBetween(Instant.ofEpochMilli(entry[1]).minus(skew).minusSeconds(1),
							Instant.ofEpochMilli(entry[2]).plus(skew));
			});
		}

	}

	/** Lets the nodes run for a while: a length of time, not a wait for a result. */
	private static void hold(Duration duration) throws InterruptedException {
		TimeUnit.NANOSECONDS.sleep(duration.toNanos());
	}

}
