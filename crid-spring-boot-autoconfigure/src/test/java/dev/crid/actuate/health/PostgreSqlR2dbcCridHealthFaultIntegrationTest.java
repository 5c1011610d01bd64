package dev.crid.actuate.health;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import dev.crid.CridNode;
import dev.crid.autoconfigure.CridAutoConfiguration;
import dev.crid.autoconfigure.health.CridHealthContributorAutoConfiguration;
import dev.crid.autoconfigure.registry.CridRegistryAutoConfiguration;
import dev.crid.r2dbc.R2dbcRegistry;
import dev.crid.testsupport.FaultProxy;
import dev.crid.testsupport.TestDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.r2dbc.autoconfigure.R2dbcAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

/**
 * The health of a reactive application whose registry is on R2DBC, as the
 * auto-configuration builds it (Spring Boot's pooled ConnectionFactory, the registry, the
 * node, the health indicator on Boot's task executor), reaching PostgreSQL through a
 * {@link FaultProxy}: the health inspects the registry's table through the registry SPI
 * as it does for JDBC, names the kind {@code r2dbc}, and goes DOWN when the database
 * refuses connections or stops answering, while the node still holds IDs, answering every
 * request within its bound; it is UP again once the database returns.
 */
class PostgreSqlR2dbcCridHealthFaultIntegrationTest {

	/** Every health request answers within this, whatever the database does. */
	private static final Duration HEALTH_CALL_LIMIT = Duration.ofSeconds(1);

	/**
	 * How soon the health goes DOWN: a check that finished just before the fault is
	 * reused for {@link CridHealthIndicator#CHECK_REUSE}, the next one is waited for
	 * {@link CridHealthIndicator#CHECK_WAIT} at most, the probe sees it within its poll
	 * interval, and a loaded machine gets a second's margin.
	 */
	private static final Duration DOWN_LIMIT = CridHealthIndicator.CHECK_REUSE.plus(CridHealthIndicator.CHECK_WAIT)
		.plusMillis(50)
		.plusSeconds(1);

	private static final Duration POLL_INTERVAL = Duration.ofMillis(50);

	private FaultProxy proxy;

	private String table;

	@BeforeEach
	void startProxy() {
		this.proxy = FaultProxy.inFrontOf(TestDatabase.POSTGRESQL);
		this.table = "crid_r2dbc_health_" + Long.toHexString(System.nanoTime() & 0xffffff);
	}

	@AfterEach
	void dropTables() {
		if (this.proxy != null) {
			this.proxy.close();
			try (var admin = TestDatabase.POSTGRESQL.dataSource(1)) {
				TestDatabase.dropRegistryTables(admin, this.table);
			}
		}
	}

	@Test
	void goesDownWhenTheDatabaseRefusesConnectionsWhileTheNodeHoldsIdsAndUpWhenItReturns() {
		application().run((context) -> rideOut(context, "cut", this.proxy::cut));
	}

	@Test
	void answersWithinItsBoundAndGoesDownWhileTheDatabaseIsBlackHoled() {
		application().run((context) -> rideOut(context, "black hole", this.proxy::blackHole));
	}

	private void rideOut(AssertableApplicationContext context, String fault, Runnable faultAction) {
		assertThat(context).hasNotFailed().hasSingleBean(R2dbcRegistry.class);
		CridNode node = context.getBean(CridNode.class);
		CridHealthIndicator indicator = context.getBean(CridHealthIndicator.class);
		assertThat(node.nextId()).isPositive();
		await().atMost(Duration.ofSeconds(10)).until(() -> indicator.health().getStatus() == Status.UP);
		Health up = indicator.health();
		assertThat(up.getDetails().get("registry"))
			.isEqualTo(Map.of("kind", "r2dbc", "table", this.table, "dialect", "postgresql"));
		long idsLeft = node.stats().idsLeftInBlock();
		assertThat(idsLeft).as("IDs the node holds").isPositive();

		long faultAt = System.nanoTime();
		faultAction.run();
		Duration slowest = Duration.ZERO;
		Duration timeToDown = null;
		Health health = up;
		while (timeToDown == null) {
			long started = System.nanoTime();
			health = indicator.health();
			long now = System.nanoTime();
			slowest = max(slowest, Duration.ofNanos(now - started));
			if (health.getStatus() == Status.DOWN) {
				timeToDown = Duration.ofNanos(now - faultAt);
			}
			else if (now - faultAt > TimeUnit.SECONDS.toNanos(10)) {
				fail("The health did not go DOWN within 10 s of the fault (%s): %s", fault, health);
			}
			LockSupport.parkNanos(POLL_INTERVAL.toNanos());
		}
		Object error = health.getDetails().get("error");
		assertThat(node.stats().idsLeftInBlock()).as("IDs the node still holds, DOWN").isEqualTo(idsLeft);
		assertThat(node.stats().consecutiveFailures()).as("failed reservations: none was asked for").isZero();

		this.proxy.heal();
		long healedAt = System.nanoTime();
		await().atMost(Duration.ofSeconds(10)).until(() -> indicator.health().getStatus() == Status.UP);
		Duration timeToUp = Duration.ofNanos(System.nanoTime() - healedAt);
		System.out.printf(
				"crid R2DBC health under fault: database=postgresql fault=\"%s\" timeToDown=%d ms "
						+ "slowestHealthCall=%d ms timeToUpAfterHeal=%d ms error=\"%s\"%n",
				fault, timeToDown.toMillis(), slowest.toMillis(), timeToUp.toMillis(), error);
		assertThat(slowest).as("slowest health call (%s)", fault).isLessThan(HEALTH_CALL_LIMIT);
		assertThat(timeToDown).as("time to DOWN (%s)", fault).isLessThanOrEqualTo(DOWN_LIMIT);
		assertThat(error).as("the error of the DOWN answer").isNotNull();
	}

	private static Duration max(Duration a, Duration b) {
		return (a.compareTo(b) >= 0) ? a : b;
	}

	private ApplicationContextRunner application() {
		TestDatabase.Endpoint endpoint = TestDatabase.POSTGRESQL.endpoint();
		String url = "r2dbc:" + this.proxy.jdbcUrl().substring("jdbc:".length()).replaceFirst("\\?.*", "")
				+ "?connectTimeout=PT2S";
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(R2dbcAutoConfiguration.class, TaskExecutionAutoConfiguration.class,
					CridRegistryAutoConfiguration.class, CridAutoConfiguration.class,
					CridHealthContributorAutoConfiguration.class))
			.withPropertyValues("spring.r2dbc.url=" + url, "spring.r2dbc.username=" + endpoint.username(),
					"spring.r2dbc.password=" + endpoint.password(), "spring.r2dbc.pool.max-acquire-time=2s",
					"crid.registry.r2dbc.initialize-schema=always", "crid.registry.r2dbc.table-name=" + this.table,
					"crid.block-size=100000", "crid.threshold=0");
	}

}
