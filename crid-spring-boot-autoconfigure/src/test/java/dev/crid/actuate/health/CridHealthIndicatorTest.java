package dev.crid.actuate.health;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import dev.crid.CridNode;
import dev.crid.InMemoryRegistry;
import dev.crid.Registry;
import dev.crid.RegistryException;
import dev.crid.jdbc.JdbcTemplateRegistry;
import dev.crid.testsupport.SteppedClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DelegatingDataSource;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabase;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseBuilder;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseType;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Tests that {@link CridHealthIndicator} answers promptly whatever the registry does, and
 * says why it reports DOWN.
 */
class CridHealthIndicatorTest {

	/**
	 * What reading the wall clock and the monotonic clock may add to a skew measured in a
	 * call, beyond the call's own length: their granularity, and how far they drift apart
	 * in a test's time (NTP slews a clock by at most 0.5 ms a second).
	 */
	private static final Duration CLOCK_READINGS = Duration.ofMillis(10);

	private final ExecutorService checks = Executors.newCachedThreadPool();

	private final EmbeddedDatabase database = new EmbeddedDatabaseBuilder().setType(EmbeddedDatabaseType.H2)
		.generateUniqueName(true)
		.build();

	@AfterEach
	void shutDown() {
		this.checks.shutdownNow();
		this.database.shutdown();
	}

	@Test
	void answersWithinTheCheckWaitWhileTheDatabaseHangsAndComesBackUp() throws Exception {
		HangingDataSource hanging = new HangingDataSource(this.database);
		JdbcTemplateRegistry registry = new JdbcTemplateRegistry(new JdbcTemplate(hanging));
		registry.ensureSchema();
		try (CridNode node = CridNode.builder(registry).build()) {
			node.warmUp();
			CridHealthIndicator indicator = new CridHealthIndicator(node, registry, this.checks);
			assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);
			Thread.sleep(CridHealthIndicator.CHECK_REUSE.toMillis());
			hanging.hang();
			for (int request = 0; request < 3; request++) {
				long started = System.nanoTime();
				Health health = indicator.health();
				// The request waits for the hanging check for CHECK_WAIT, not less (a
				// timed Future.get), then answers from the node's statistics in
				// microseconds. The upper bound leaves as much again for a loaded machine
				// to wake the request: one that waited for the connection would take 30
				// s.
				assertThat(Duration.ofNanos(System.nanoTime() - started))
					.isGreaterThanOrEqualTo(CridHealthIndicator.CHECK_WAIT)
					.isLessThan(CridHealthIndicator.CHECK_WAIT.multipliedBy(2));
				assertThat(health.getStatus()).isEqualTo(Status.DOWN);
				assertThat(health.getDetails().get("error")).asString()
					.startsWith("The registry has not answered its health check for");
			}
			assertThat(hanging.waiting()).as("one check hangs, not one per request").isOne();
			hanging.release();
			await().atMost(Duration.ofSeconds(5)).until(() -> indicator.health().getStatus() == Status.UP);
		}
	}

	@Test
	void aNodeRidingOutAnOutageOnItsRunwayIsUpWithTheRegistryErrorUntilItsStockIsGone() {
		InMemoryRegistry memory = new InMemoryRegistry();
		AtomicBoolean failing = new AtomicBoolean();
		Registry registry = (timestamp, blockSize) -> {
			if (failing.get()) {
				throw new RegistryException("Connection refused");
			}
			return memory.allocate(timestamp, blockSize);
		};
		try (CridNode node = CridNode.builder(registry)
			.blockSize(100)
			.threshold(50)
			.runway(Duration.ofSeconds(10))
			.allocationTimeout(Duration.ofSeconds(1))
			.build()) {
			node.warmUp();
			// 1,000 IDs within a second or so: over the node's 10 s window, 100 a second;
			// it stocks the IDs of its last 10 s
			for (int i = 0; i < 10; i++) {
				for (int j = 0; j < 100; j++) {
					node.nextId();
				}
				sleep(Duration.ofMillis(100));
			}
			await().atMost(Duration.ofSeconds(10)).until(() -> node.stats().idsInStock() >= 1_000);
			CridHealthIndicator indicator = new CridHealthIndicator(node, registry, this.checks);
			Health up = indicator.health();
			assertThat(up.getStatus()).isEqualTo(Status.UP);
			assertThat(up.getDetails()).doesNotContainKey("registryError");
			assertThat((Long) up.getDetails().get("idsInStock")).isGreaterThanOrEqualTo(1_000L);
			assertThat(Duration.parse(up.getDetails().get("runway").toString()))
				.isGreaterThanOrEqualTo(Duration.ofSeconds(10));
			failing.set(true);
			// Below the runway the node asks for more, and fails: take IDs a few at a
			// time
			// (its blocks may have grown, so how many is not known) until it has.
			long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
			while (node.stats().consecutiveFailures() == 0) {
				assertThat(System.nanoTime() - deadline).as("time until the node asked for more and failed")
					.isNegative();
				for (int i = 0; i < 20; i++) {
					node.nextId();
				}
				sleep(Duration.ofMillis(1));
			}
			Health ridingOut = indicator.health();
			assertThat(ridingOut.getStatus()).isEqualTo(Status.UP);
			assertThat(ridingOut.getDetails().get("registryError")).asString().contains("Connection refused");
			assertThat(ridingOut.getDetails()).doesNotContainKey("error");
			while (node.stats().idsLeftInBlock() + node.stats().idsInStock() > 0) {
				node.nextId();
			}
			Health down = indicator.health();
			assertThat(down.getStatus()).isEqualTo(Status.DOWN);
			assertThat(down.getDetails().get("error")).asString().contains("Connection refused");
			assertThat(down.getDetails()).containsEntry("runway", "PT0S");
		}
	}

	@Test
	void callsTheNodeGaveUpOnThatHaveNotReturnedShowAsStuckCalls() {
		InMemoryRegistry memory = new InMemoryRegistry();
		AtomicInteger calls = new AtomicInteger();
		CountDownLatch release = new CountDownLatch(1);
		Registry registry = (timestamp, blockSize) -> {
			if (calls.incrementAndGet() == 2) {
				awaitUninterruptibly(release); // a read on a dead socket
			}
			return memory.allocate(timestamp, blockSize);
		};
		try (CridNode node = CridNode.builder(registry)
			.blockSize(100)
			.threshold(50)
			.allocationTimeout(Duration.ofSeconds(1))
			.build()) {
			CridHealthIndicator indicator = new CridHealthIndicator(node, registry, this.checks);
			node.warmUp();
			assertThat(indicator.health().getDetails()).doesNotContainKey("stuckCalls");
			// past the trigger: the prefetch hangs; the callers give up on it and get a
			// block from a fresh call
			await().atMost(Duration.ofSeconds(10)).ignoreExceptions().until(() -> {
				for (int i = 0; i < 100; i++) {
					node.nextId();
				}
				return calls.get() >= 3;
			});
			assertThat(indicator.health().getDetails()).containsEntry("stuckCalls", 1);
			release.countDown();
			await().atMost(Duration.ofSeconds(10))
				.until(() -> !indicator.health().getDetails().containsKey("stuckCalls"));
		}
		finally {
			release.countDown();
		}
	}

	@Test
	void aClockTooFarFromTheRegistrysIsDownWithTheSkew() {
		Registry skewed = inMemoryWithClockAhead(Duration.ofMinutes(3));
		try (CridNode node = CridNode.builder(skewed).allocationTimeout(Duration.ofSeconds(1)).build()) {
			CridHealthIndicator indicator = new CridHealthIndicator(node, skewed, this.checks);
			long started = System.nanoTime();
			assertThatThrownBy(node::nextId).isInstanceOf(RegistryException.class);
			Duration calls = Duration.ofNanos(System.nanoTime() - started).plus(CLOCK_READINGS);
			Health health = indicator.health();
			assertThat(health.getStatus()).isEqualTo(Status.DOWN);
			assertThat(health.getDetails().get("error")).asString()
				.contains("This node's clock is", "behind", "more than the PT1M allowed");
			// Measured against the middle of a registry call made within nextId: off by
			// half that call at most.
			assertThat(Duration.parse(health.getDetails().get("clockSkew").toString()))
				.isBetween(Duration.ofMinutes(3).minus(calls), Duration.ofMinutes(3).plus(calls));
			assertThat(health.getDetails()).containsEntry("maxClockSkew", "PT1M");
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "PT1H", "-PT1H" })
	void aClockSteppedWhileIdsAreAtHandIsDownWithTheEstimatedSkewUntilItIsBack(Duration step) {
		SteppedClock clock = new SteppedClock(Duration.ZERO);
		Registry registry = inMemoryWithClockAhead(Duration.ZERO);
		try (CridNode node = CridNode.builder(registry).clock(clock).build()) {
			long started = System.nanoTime();
			node.warmUp();
			Duration warmUp = Duration.ofNanos(System.nanoTime() - started);
			CridHealthIndicator indicator = new CridHealthIndicator(node, registry, this.checks);
			assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);
			long reservations = node.stats().prefetchAllocations().count()
					+ node.stats().synchronousAllocations().count();
			clock.offset(step);
			started = System.nanoTime();
			Health health = indicator.health();
			// The skew is measured against the middle of warmUp()'s reservation, and the
			// estimate reads the node's clock beside the monotonic clock, once then and
			// once in the health call: each reading is off by at most the length of the
			// call it is made in.
			Duration measuredWithin = warmUp.plus(CLOCK_READINGS);
			Duration estimatedWithin = measuredWithin.plusNanos(System.nanoTime() - started);
			assertThat(health.getStatus()).isEqualTo(Status.DOWN);
			assertThat(health.getDetails().get("error")).asString()
				.contains("This node's clock is now PT",
						(step.isNegative() ? " behind" : " ahead of") + " the registry's",
						"more than the PT1M allowed (crid.max-clock-skew)", "will refuse its next reservation");
			assertThat(Duration.parse(health.getDetails().get("estimatedClockSkew").toString()))
				.isBetween(step.negated().minus(estimatedWithin), step.negated().plus(estimatedWithin));
			assertThat(Duration.parse(health.getDetails().get("clockSkew").toString())).as("measured before the step")
				.isBetween(measuredWithin.negated(), measuredWithin);
			assertThat(node.stats().prefetchAllocations().count() + node.stats().synchronousAllocations().count())
				.as("the health reserves nothing to find out")
				.isEqualTo(reservations);
			clock.offset(Duration.ZERO);
			assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);
		}
	}

	/** An in-memory registry that tells its clock, this far ahead of the system clock. */
	private static Registry inMemoryWithClockAhead(Duration ahead) {
		return new Registry() {

			private final InMemoryRegistry delegate = new InMemoryRegistry();

			@Override
			public long allocate(long timestamp, long blockSize) {
				return this.delegate.allocate(timestamp, blockSize);
			}

			@Override
			public Reservation reserve(long timestamp, long blockSize) {
				return new Reservation(allocate(timestamp, blockSize), Instant.now().plus(ahead));
			}

		};
	}

	/**
	 * A data source whose connections can be made to hang, as behind a network that drops
	 * packets.
	 */
	private static final class HangingDataSource extends DelegatingDataSource {

		private volatile CountDownLatch gate = new CountDownLatch(0);

		private final AtomicInteger waiting = new AtomicInteger();

		HangingDataSource(DataSource target) {
			super(target);
		}

		void hang() {
			this.gate = new CountDownLatch(1);
		}

		void release() {
			this.gate.countDown();
		}

		int waiting() {
			return this.waiting.get();
		}

		@Override
		public Connection getConnection() throws SQLException {
			CountDownLatch current = this.gate;
			if (current.getCount() > 0) {
				this.waiting.incrementAndGet();
				try {
					current.await(30, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					throw new SQLException("Interrupted", ex);
				}
				finally {
					this.waiting.decrementAndGet();
				}
			}
			return super.getConnection();
		}

	}

	private static void sleep(Duration duration) {
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static void awaitUninterruptibly(CountDownLatch latch) {
		boolean interrupted = false;
		while (latch.getCount() > 0) {
			try {
				latch.await();
			}
			catch (InterruptedException ex) {
				interrupted = true;
			}
		}
		if (interrupted) {
			Thread.currentThread().interrupt();
		}
	}

}
