package dev.crid.actuate.health;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import dev.crid.autoconfigure.registry.CridRegistryAutoConfiguration;
import dev.crid.CridException;
import dev.crid.CridNode;
import dev.crid.CridStats;
import dev.crid.testsupport.FaultProxy;
import dev.crid.testsupport.TestDatabase;
import dev.crid.autoconfigure.CridAutoConfiguration;
import dev.crid.autoconfigure.health.CridHealthContributorAutoConfiguration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.health.DataSourceHealthIndicator;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

/**
 * The health of an application whose database goes away and comes back, as the
 * auto-configuration builds it: a HikariCP pool set as the README recommends, reaching a
 * real database through a {@link FaultProxy}, the database registry, the node, and the
 * health indicator on Boot's task executor. Each test measures how long the health takes
 * to go DOWN, how long its slowest answer took during the outage, and how long it takes
 * to come back UP after the database returns, and prints the figures on one line.
 */
abstract class AbstractCridHealthFaultIntegrationTest {

	/** Every health request answers within this, whatever the database does. */
	private static final Duration HEALTH_CALL_LIMIT = Duration.ofSeconds(1);

	/**
	 * Room for a loaded machine (two cores shared with other builds) to schedule the
	 * threads involved.
	 */
	private static final Duration MARGIN = Duration.ofSeconds(1);

	private static final Duration POLL_INTERVAL = Duration.ofMillis(50);

	/**
	 * How soon the health goes DOWN: a check that finished just before the fault is
	 * reused for {@link CridHealthIndicator#CHECK_REUSE}, the next one, black-holed, is
	 * waited for {@link CridHealthIndicator#CHECK_WAIT} (half a second by design, where a
	 * cut fails at once), and the probe sees it within its poll interval; then the
	 * margin.
	 */
	private static final Duration DOWN_LIMIT = CridHealthIndicator.CHECK_REUSE.plus(CridHealthIndicator.CHECK_WAIT)
		.plus(POLL_INTERVAL)
		.plus(MARGIN);

	/**
	 * How soon the health is UP again after the database returns: a failed check is
	 * reused for {@link CridHealthIndicator#CHECK_REUSE}, the node retries at most half a
	 * second apart, and the probe sees it within its poll interval; then the margin.
	 */
	private static final Duration UP_LIMIT = CridHealthIndicator.CHECK_REUSE.plusMillis(500)
		.plus(POLL_INTERVAL)
		.plus(MARGIN);

	/**
	 * How long each outage lasts, counted from the fault: long enough that a HikariCP
	 * pool left without connections backs off for seconds between attempts to reconnect,
	 * which the registry must not wait for.
	 */
	private static final Duration OUTAGE = Duration.ofSeconds(6);

	/** The pool's {@code connection-timeout}, as the README recommends. */
	private static final Duration POOL_CONNECTION_TIMEOUT = Duration.ofSeconds(2);

	private FaultProxy proxy;

	private HikariDataSource admin;

	private String table;

	/**
	 * Returns the database the tests run against.
	 * @return the database
	 */
	protected abstract TestDatabase database();

	@BeforeEach
	void startProxy() {
		this.admin = database().dataSource(1);
		this.proxy = FaultProxy.inFrontOf(database());
		this.table = "crid_health_fault_" + Long.toHexString(System.nanoTime() & 0xffffff);
	}

	@AfterEach
	void dropTable() {
		if (this.proxy != null) {
			this.proxy.close();
		}
		if (this.admin != null) {
			TestDatabase.dropRegistryTables(this.admin, this.table);
			this.admin.close();
		}
	}

	@Test
	void goesDownWhenTheDatabaseIsCutAndUpSoonAfterItReturns() {
		// The proxy refuses connections while cut: the driver says so.
		application().run((context) -> rideOutWhileTakingIds(context, "cut", "Connection refused", this.proxy::cut));
	}

	@Test
	void answersPromptlyWhileTheDatabaseIsBlackHoledAndIsUpSoonAfterItReturns() {
		// Nothing comes back from a black hole: the check does not return, or the driver
		// times out connecting.
		application().run((context) -> rideOutWhileTakingIds(context, "black hole",
				"The registry has not answered its health check for|timed out", this.proxy::blackHole));
	}

	@Test
	void aDrainedInstanceNobodyCallsIsUpSoonAfterTheDatabaseReturns() {
		application().run((context) -> {
			CridNode node = context.getBean(CridNode.class);
			CridHealthIndicator indicator = context.getBean(CridHealthIndicator.class);
			await().atMost(Duration.ofSeconds(10)).until(() -> indicator.health().getStatus() == Status.UP);
			Figures figures = new Figures("drained, cut", "Connection refused");
			long faultAt = System.nanoTime();
			this.proxy.cut();
			CompletableFuture<Void> drain = CompletableFuture.runAsync(() -> drain(node),
					(task) -> new Thread(task, "crid-health-fault-drain").start());
			// Callers take what is left and fail; then, for the rest of the outage,
			// nobody asks for an ID and only the health is probed.
			figures.watchOutage(indicator, faultAt, drain);
			assertThat(drain).isDone();
			drain.join();
			CridStats drained = node.stats();
			assertThat(drained.idsLeftInBlock()).as("IDs left once callers failed").isZero();
			assertThat(drained.nextBlockReady()).isFalse();
			long issued = drained.idsIssued();
			this.proxy.heal();
			figures.awaitUp(indicator);
			figures.print(database());
			CridStats after = node.stats();
			assertThat(after.idsIssued()).as("no ID was asked for since").isEqualTo(issued);
			assertThat(after.nextBlockReady() || after.idsLeftInBlock() > 0)
				.as("the node reserved a block by itself once the database returned: %s", after)
				.isTrue();
			figures.assertWithinLimits();
		});
	}

	/**
	 * What the README says of Boot's full health during an outage: Spring Boot's own
	 * {@code db} component asks the pool for a connection, and so waits the pool's
	 * {@code connection-timeout} (2 s here) while the database is cut, whereas crid's
	 * component keeps its bound.
	 */
	@Test
	void bootsDatabaseHealthWaitsOnThePoolWhileCridsKeepsItsBound() {
		application().run((context) -> {
			CridHealthIndicator crid = context.getBean(CridHealthIndicator.class);
			DataSourceHealthIndicator db = new DataSourceHealthIndicator(context.getBean(DataSource.class));
			await().atMost(Duration.ofSeconds(10)).until(() -> crid.health().getStatus() == Status.UP);
			assertThat(db.health().getStatus()).isEqualTo(Status.UP);
			this.proxy.cut();
			long cutAt = System.nanoTime();
			Duration dbSlowest = Duration.ZERO;
			Duration cridSlowest = Duration.ZERO;
			Health dbHealth = null;
			Health cridHealth = null;
			// Three calls of each, in turns, as a probe of /actuator/health every second
			// would make them: the pool's connections are found dead at the first, the
			// next ones wait for new ones.
			for (int i = 0; i < 3; i++) {
				long started = System.nanoTime();
				dbHealth = db.health();
				Duration took = Duration.ofNanos(System.nanoTime() - started);
				dbSlowest = (took.compareTo(dbSlowest) > 0) ? took : dbSlowest;
				started = System.nanoTime();
				cridHealth = crid.health();
				took = Duration.ofNanos(System.nanoTime() - started);
				cridSlowest = (took.compareTo(cridSlowest) > 0) ? took : cridSlowest;
				LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(1));
			}
			System.out.printf(
					"Boot's db health during a cut: database=%s slowestDbHealthCall=%d ms (%s) "
							+ "slowestCridHealthCall=%d ms (%s) over %d ms%n",
					database().name().toLowerCase(), dbSlowest.toMillis(), dbHealth.getStatus(), cridSlowest.toMillis(),
					cridHealth.getStatus(), TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - cutAt));
			assertThat(dbHealth.getStatus()).isEqualTo(Status.DOWN);
			assertThat(dbSlowest).as("Boot's slowest db health call, waiting for the pool's connection-timeout")
				.isGreaterThanOrEqualTo(POOL_CONNECTION_TIMEOUT.minusMillis(100));
			assertThat(cridHealth.getStatus()).isEqualTo(Status.DOWN);
			assertThat(cridSlowest).as("slowest crid health call").isLessThan(HEALTH_CALL_LIMIT);
		});
	}

	private void rideOutWhileTakingIds(AssertableApplicationContext context, String fault, String cause,
			Runnable faultAction) {
		assertThat(context).hasNotFailed();
		CridNode node = context.getBean(CridNode.class);
		CridHealthIndicator indicator = context.getBean(CridHealthIndicator.class);
		IdTaker taker = new IdTaker(node);
		Thread thread = new Thread(taker, "crid-health-fault-taker");
		thread.setDaemon(true);
		thread.start();
		try {
			await().atMost(Duration.ofSeconds(10)).until(() -> taker.ids.get() > 1_000);
			await().atMost(Duration.ofSeconds(10)).until(() -> indicator.health().getStatus() == Status.UP);
			Figures figures = new Figures(fault, cause);
			long faultAt = System.nanoTime();
			faultAction.run();
			figures.watchOutage(indicator, faultAt, CompletableFuture.completedFuture(null));
			this.proxy.heal();
			figures.awaitUp(indicator);
			long idsAtUp = taker.ids.get();
			await().atMost(Duration.ofSeconds(10)).until(() -> taker.ids.get() > idsAtUp + 1_000);
			figures.print(database());
			figures.assertWithinLimits();
		}
		finally {
			taker.stop = true;
			LockSupport.unpark(thread);
		}
	}

	/**
	 * Takes IDs until a call fails, which it does once the node has none left and the
	 * wait for a block ends.
	 */
	private static void drain(CridNode node) {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
		while (System.nanoTime() < deadline) {
			try {
				node.nextId();
			}
			catch (CridException ex) {
				return;
			}
		}
		fail("nextId() kept answering for 30 s with the database cut");
	}

	private ApplicationContextRunner application() {
		TestDatabase.Endpoint endpoint = database().endpoint();
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
					TaskExecutionAutoConfiguration.class, CridRegistryAutoConfiguration.class,
					CridAutoConfiguration.class, CridHealthContributorAutoConfiguration.class))
			.withPropertyValues("spring.datasource.url=" + this.proxy.jdbcUrl(),
					"spring.datasource.username=" + endpoint.username(),
					"spring.datasource.password=" + endpoint.password(), "spring.datasource.hikari.maximum-pool-size=4",
					// As the README recommends for a service that must never wait long
					// for IDs. HikariCP's timeouts are plain milliseconds: "2s" fails to
					// bind.
					"spring.datasource.hikari.connection-timeout=" + POOL_CONNECTION_TIMEOUT.toMillis(),
					"spring.datasource.hikari.validation-timeout=1000", "crid.allocation-timeout=5s",
					"crid.registry.jdbc.query-timeout=2s", "crid.registry.jdbc.initialize-schema=always",
					"crid.registry.jdbc.table-name=" + this.table, "crid.block-size=1000", "crid.threshold=500");
	}

	/**
	 * Keeps taking IDs, a few thousand a second, counting what it gets and what fails.
	 */
	private static final class IdTaker implements Runnable {

		private final CridNode node;

		final AtomicLong ids = new AtomicLong();

		final AtomicLong failures = new AtomicLong();

		volatile boolean stop;

		IdTaker(CridNode node) {
			this.node = node;
		}

		@Override
		public void run() {
			while (!this.stop) {
				try {
					this.node.nextId();
					this.ids.incrementAndGet();
				}
				catch (CridException ex) {
					this.failures.incrementAndGet();
				}
				LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(200));
			}
		}

	}

	/**
	 * What one outage showed: when the health went DOWN and came back UP, and its slowest
	 * answer.
	 */
	private static final class Figures {

		private final String fault;

		private final String cause;

		private Duration timeToDown;

		private Duration timeToUp;

		private Duration slowest = Duration.ZERO;

		private int calls;

		private int upDuringOutage;

		private String lastDownError;

		/**
		 * The figures of one fault, whose DOWN error must name its cause: contain the
		 * given pattern.
		 */
		Figures(String fault, String cause) {
			this.fault = fault;
			this.cause = cause;
		}

		/**
		 * Probes the health from the fault until the outage ends: {@link #OUTAGE} after
		 * the fault, and at least two seconds after the given work is done. The health
		 * must go DOWN and stay DOWN.
		 */
		void watchOutage(CridHealthIndicator indicator, long faultAt, CompletableFuture<?> work) {
			long end = faultAt + OUTAGE.toNanos();
			long workDoneAt = 0;
			while (System.nanoTime() < end || this.timeToDown == null || workDoneAt == 0
					|| System.nanoTime() - workDoneAt < TimeUnit.SECONDS.toNanos(2)) {
				if (workDoneAt == 0 && work.isDone()) {
					workDoneAt = System.nanoTime();
				}
				Health health = call(indicator);
				long now = System.nanoTime();
				if (health.getStatus() == Status.DOWN) {
					if (this.timeToDown == null) {
						this.timeToDown = Duration.ofNanos(now - faultAt);
					}
					this.lastDownError = String.valueOf(health.getDetails().get("error"));
				}
				else if (this.timeToDown != null) {
					this.upDuringOutage++;
				}
				if (this.timeToDown == null && now - faultAt > TimeUnit.SECONDS.toNanos(10)) {
					fail("The health did not go DOWN within 10 s of the fault (%s): %s", this.fault, health);
				}
				pause();
			}
		}

		/** Probes the health from the heal until it is UP. */
		void awaitUp(CridHealthIndicator indicator) {
			long healedAt = System.nanoTime();
			while (true) {
				Health health = call(indicator);
				long now = System.nanoTime();
				if (health.getStatus() == Status.UP) {
					this.timeToUp = Duration.ofNanos(now - healedAt);
					return;
				}
				if (now - healedAt > TimeUnit.SECONDS.toNanos(10)) {
					fail("The health was not UP within 10 s of the heal (%s): %s", this.fault, health);
				}
				pause();
			}
		}

		private Health call(CridHealthIndicator indicator) {
			long started = System.nanoTime();
			Health health = indicator.health();
			Duration took = Duration.ofNanos(System.nanoTime() - started);
			this.calls++;
			if (took.compareTo(this.slowest) > 0) {
				this.slowest = took;
			}
			return health;
		}

		private static void pause() {
			LockSupport.parkNanos(POLL_INTERVAL.toNanos());
		}

		void print(TestDatabase database) {
			System.out.printf("crid health under fault: database=%s fault=\"%s\" outage=%d ms timeToDown=%d ms "
					+ "slowestHealthCall=%d ms timeToUpAfterHeal=%d ms healthCalls=%d upDuringOutage=%d error=\"%s\"%n",
					database.name().toLowerCase(), this.fault, OUTAGE.toMillis(), this.timeToDown.toMillis(),
					this.slowest.toMillis(), this.timeToUp.toMillis(), this.calls, this.upDuringOutage,
					this.lastDownError);
		}

		void assertWithinLimits() {
			assertThat(this.slowest).as("slowest health call (%s)", this.fault).isLessThan(HEALTH_CALL_LIMIT);
			assertThat(this.timeToDown).as("time to DOWN (%s)", this.fault).isLessThanOrEqualTo(DOWN_LIMIT);
			assertThat(this.upDuringOutage).as("UP answers during the outage once DOWN (%s)", this.fault).isZero();
			assertThat(this.lastDownError).as("error of the last DOWN answer (%s)", this.fault)
				.containsPattern(this.cause);
			assertThat(this.timeToUp).as("time to UP after the heal (%s)", this.fault).isLessThanOrEqualTo(UP_LIMIT);
		}

	}

}
