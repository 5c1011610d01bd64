package dev.crid;

import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Tests for what a node refuses to trust: a registry used with another layout, a clock
 * too far from the registry's, and a registry that hands out again numbers it gave the
 * node before.
 */
class CridNodeGuardTest {

	private static final Duration AWAIT = Duration.ofSeconds(10);

	private final MutableClock clock = new MutableClock(CridLayout.DEFAULT_EPOCH.plusSeconds(500));

	@Test
	void nodeWithAnotherBitSplitIsRefusedNamingBothLayouts() {
		InMemoryRegistry registry = new InMemoryRegistry();
		try (CridNode first = CridNode.builder(registry).clock(this.clock).timestampBits(31).sequenceBits(32).build();
				CridNode second = CridNode.builder(registry)
					.clock(this.clock)
					.timestampBits(32)
					.sequenceBits(31)
					.build()) {
			long id = first.nextId();
			long started = System.nanoTime();
			assertThatExceptionOfType(LayoutMismatchException.class).isThrownBy(second::nextId)
				.withMessageContaining("31 timestamp bits and 32 sequence bits")
				.withMessageContaining("32 timestamp bits and 31 sequence bits");
			assertThat(Duration.ofNanos(System.nanoTime() - started)).as("at once, not after the timeout")
				.isLessThan(Duration.ofSeconds(2));
			assertThatExceptionOfType(LayoutMismatchException.class).isThrownBy(second::warmUp);
			assertThat(first.nextId()).isNotEqualTo(id);
			assertThat(second.stats().lastFailure()).contains("LayoutMismatchException");
		}
	}

	@Test
	void nodeWithAnotherEpochIsRefused() {
		InMemoryRegistry registry = new InMemoryRegistry();
		try (CridNode first = CridNode.builder(registry).clock(this.clock).build();
				CridNode second = CridNode.builder(registry)
					.clock(this.clock)
					.epoch(CridLayout.DEFAULT_EPOCH.minusSeconds(86_400))
					.build()) {
			first.warmUp();
			assertThatExceptionOfType(LayoutMismatchException.class).isThrownBy(second::nextId)
				.satisfies((ex) -> assertThat(ex.registryLayout()).isEqualTo(first.layout()))
				.satisfies((ex) -> assertThat(ex.nodeLayout()).isEqualTo(second.layout()));
		}
	}

	@Test
	void layoutIsCheckedOnceNotOnEveryBlock() {
		int[] checks = new int[1];
		Registry registry = new CountingLayoutChecks(new InMemoryRegistry(), checks);
		try (CridNode node = CridNode.builder(registry).clock(this.clock).blockSize(3).threshold(0).build()) {
			for (int i = 0; i < 10; i++) {
				node.nextId();
			}
			assertThat(checks[0]).isOne();
		}
	}

	@Test
	void clockSkewWithinTheLimitIsMeasuredAndServed() {
		SkewedRegistry registry = new SkewedRegistry(this.clock, Duration.ofSeconds(12));
		try (CridNode node = CridNode.builder(registry).clock(this.clock).build()) {
			assertThat(node.stats().clockSkew()).isNull();
			assertThat(node.nextId()).isNotNegative();
			assertThat(node.stats().clockSkew()).isEqualTo(Duration.ofSeconds(12));
		}
	}

	@Test
	void estimatedClockSkewFollowsAClockSteppedSinceTheLastReservation() {
		SkewedRegistry registry = new SkewedRegistry(this.clock, Duration.ofSeconds(12));
		try (CridNode node = CridNode.builder(registry).clock(this.clock).build()) {
			assertThat(node.stats().estimatedClockSkew()).isNull();
			node.warmUp();
			// This clock stands still, so the estimate also grows by the real time the
			// test takes.
			assertThat(node.stats().estimatedClockSkew()).isBetween(Duration.ofSeconds(12), Duration.ofSeconds(13));
			this.clock.advance(Duration.ofHours(1));
			assertThat(node.nextId()).isNotNegative();
			assertThat(node.stats().clockSkew()).as("no reservation since").isEqualTo(Duration.ofSeconds(12));
			assertThat(node.stats().estimatedClockSkew()).isBetween(Duration.ofSeconds(12).minusHours(1),
					Duration.ofSeconds(13).minusHours(1));
			this.clock.advance(Duration.ofHours(-2));
			assertThat(node.stats().estimatedClockSkew()).isBetween(Duration.ofSeconds(12).plusHours(1),
					Duration.ofSeconds(13).plusHours(1));
		}
	}

	@Test
	void clockFurtherFromTheRegistrysThanAllowedIsRefusedUntilItComesBack() {
		SkewedRegistry registry = new SkewedRegistry(this.clock, Duration.ofMinutes(-61));
		try (CridNode node = CridNode.builder(registry)
			.clock(this.clock)
			.maxClockSkew(Duration.ofMinutes(1))
			.allocationTimeout(Duration.ofMillis(300))
			.build()) {
			assertThatExceptionOfType(RegistryException.class).isThrownBy(node::nextId)
				.withMessageContaining("This node's clock is PT1H1M ahead of the clock of registry")
				.withMessageContaining("more than the PT1M allowed");
			assertThat(node.stats().clockSkew()).isEqualTo(Duration.ofMinutes(-61));
			assertThat(node.stats().consecutiveFailures()).isGreaterThan(1);
			registry.skew = Duration.ofSeconds(59);
			// Served again once the node's retry comes round, which a loaded machine may
			// put beyond one caller's 300 ms.
			AtomicLong id = new AtomicLong(-1);
			await().atMost(AWAIT).ignoreExceptionsInstanceOf(RegistryException.class).until(() -> {
				id.set(node.nextId());
				return true;
			});
			assertThat(id.get()).isNotNegative();
			assertThat(node.stats().clockSkew()).isEqualTo(Duration.ofSeconds(59));
		}
	}

	@Test
	void aClockSetRightWhileTheRegistryCallIsOutLetsNoIdStampedAnHourOffThrough() {
		Instant right = CridLayout.DEFAULT_EPOCH.plus(Duration.ofDays(1));
		this.clock.set(right.minus(Duration.ofHours(1)));
		// The node's clock reads an hour behind as it asks; the time service sets it
		// right before the registry answers, so on the node's clock the call took an
		// hour.
		try (CridNode node = CridNode.builder(new FirstAnswerMovesTheClock(this.clock, (asked) -> right))
			.clock(this.clock)
			.maxClockSkew(Duration.ofMinutes(1))
			.allocationTimeout(Duration.ofSeconds(10))
			.build()) {
			long id = node.nextId();
			assertThat(Instant.ofEpochSecond(node.parser().parse(id).timestamp().getEpochSecond()))
				.as("second of the first ID served")
				.isEqualTo(right);
			assertThat(node.stats().lastFailure()).as("the block stamped an hour behind, refused")
				.contains("behind the clock of registry", "maxClockSkew");
		}
	}

	@Test
	void aBlockAnsweredOnceTheNextSecondHasEndedIsNotServedAndIsReservedAgainInALaterSecond() {
		// The first answer comes two seconds after the call began, as one that waited for
		// a failover does: its second's reservations may have been lost with the old
		// primary.
		long second = CridLayout.DEFAULT.timestampAt(this.clock.instant());
		try (CridNode node = CridNode
			.builder(new FirstAnswerMovesTheClock(this.clock, (asked) -> asked.plus(Duration.ofSeconds(2))))
			.clock(this.clock)
			.allocationTimeout(Duration.ofSeconds(10))
			.build()) {
			long id = node.nextId();
			assertThat(node.layout().timestampOf(id)).as("second of the first ID served").isEqualTo(second + 2);
			assertThat(node.stats().lastFailure()).as("the late block, refused")
				.contains("answered for timestamp " + second + " only in timestamp " + (second + 2));
		}
	}

	@Test
	void aBlockAnsweredWithinTheNextSecondIsServed() {
		long second = CridLayout.DEFAULT.timestampAt(this.clock.instant());
		try (CridNode node = CridNode
			.builder(new FirstAnswerMovesTheClock(this.clock, (asked) -> asked.plus(Duration.ofMillis(1_999))))
			.clock(this.clock)
			.build()) {
			assertThat(node.layout().timestampOf(node.nextId())).isEqualTo(second);
			assertThat(node.stats().lastFailure()).isNull();
		}
	}

	@Test
	void registryThatGoesBackIsRefusedAndTheNodeMovesOnToTheNextSecond() throws Exception {
		RecordingRegistry registry = new RecordingRegistry(new InMemoryRegistry());
		try (LogRecorder log = new LogRecorder();
				CridNode node = CridNode.builder(registry)
					.clock(this.clock)
					.blockSize(10)
					.threshold(0)
					.allocationTimeout(Duration.ofSeconds(20))
					.build()) {
			Set<Long> ids = new HashSet<>();
			for (int i = 0; i < 20; i++) {
				assertThat(ids.add(node.nextId())).isTrue();
			}
			// Restored from a backup taken after the first block: it hands out [10, 20)
			// of second 500 again.
			registry.then(RecordingRegistry.Answer.start(10));
			CompletableFuture<Long> next = CompletableFuture.supplyAsync(node::nextId);
			await().atMost(AWAIT).until(() -> node.stats().registryWentBack() == 1);
			// The clock still reads second 500: the caller waits for 501, neither failing
			// nor stamping IDs ahead.
			await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(() -> !next.isDone());
			assertThat(node.stats().lastRegistryWentBackTime()).isEqualTo(this.clock.instant());
			assertThat(log.warnings()).singleElement().asString().contains("went back", "[10, 20)", "500");
			this.clock.advance(Duration.ofSeconds(1));
			long id = next.get(10, TimeUnit.SECONDS);
			assertThat(node.layout().timestampOf(id)).isEqualTo(501);
			assertThat(ids.add(id)).isTrue();
		}
	}

	@Test
	void registryThatGoesBackInAnEarlierSecondIsRefusedAfterTheClockSteppedBackToIt() throws Exception {
		RecordingRegistry registry = new RecordingRegistry(new InMemoryRegistry());
		try (CridNode node = CridNode.builder(registry)
			.clock(this.clock)
			.blockSize(10)
			.threshold(0)
			.allocationTimeout(Duration.ofSeconds(20))
			.build()) {
			Set<Long> ids = new HashSet<>();
			for (int i = 0; i < 20; i++) {
				assertThat(ids.add(node.nextId())).isTrue(); // [0, 20) of second 500
			}
			this.clock.advance(Duration.ofSeconds(1));
			for (int i = 0; i < 10; i++) {
				assertThat(ids.add(node.nextId())).isTrue(); // [0, 10) of second 501
			}
			// The clock is stepped back to 500, and the registry, restored from a backup,
			// hands out [10, 20) of second 500 again.
			this.clock.advance(Duration.ofSeconds(-1));
			registry.then(RecordingRegistry.Answer.start(10));
			CompletableFuture<Long> next = CompletableFuture.supplyAsync(node::nextId);
			await().atMost(AWAIT).until(() -> node.stats().registryWentBack() == 1);
			assertThat(next).isNotDone();
			this.clock.advance(Duration.ofSeconds(1));
			long id = next.get(10, TimeUnit.SECONDS);
			assertThat(node.layout().timestampOf(id)).isEqualTo(501);
			assertThat(ids.add(id)).as("the ID served once the clock reads 501 again").isTrue();
		}
	}

	@Test
	void registryThatGoesBackFailsTheCallerWhenTheNextSecondDoesNotComeInTime() {
		RecordingRegistry registry = new RecordingRegistry(new InMemoryRegistry());
		Duration timeout = Duration.ofMillis(300);
		try (CridNode node = CridNode.builder(registry)
			.clock(this.clock)
			.blockSize(10)
			.threshold(0)
			.allocationTimeout(timeout)
			.build()) {
			node.nextId();
			registry.otherwise(RecordingRegistry.Answer.start(5));
			for (int i = 0; i < 9; i++) {
				node.nextId();
			}
			long started = System.nanoTime();
			assertThatExceptionOfType(RegistryException.class).isThrownBy(node::nextId)
				.withMessageContaining("went back");
			assertThat(Duration.ofNanos(System.nanoTime() - started)).as("waited for the next second until the timeout")
				.isGreaterThanOrEqualTo(timeout)
				.isLessThan(timeout.plusSeconds(2));
			assertThat(node.stats().registryWentBack()).isGreaterThanOrEqualTo(1);
		}
	}

	/** A registry whose clock is off from the node's by a given amount. */
	private static final class SkewedRegistry implements Registry {

		private final InMemoryRegistry delegate = new InMemoryRegistry();

		private final MutableClock clock;

		volatile Duration skew;

		SkewedRegistry(MutableClock clock, Duration skew) {
			this.clock = clock;
			this.skew = skew;
		}

		@Override
		public long allocate(long timestamp, long blockSize) {
			return this.delegate.allocate(timestamp, blockSize);
		}

		@Override
		public Reservation reserve(long timestamp, long blockSize) {
			Instant registryTime = this.clock.instant().plus(this.skew);
			return new Reservation(allocate(timestamp, blockSize), registryTime);
		}

	}

	/**
	 * Answers its first reservation once the node's clock has moved (the time a slow call
	 * took, or a step), with the clock as it then reads; the others at once.
	 */
	private static final class FirstAnswerMovesTheClock implements Registry {

		private final InMemoryRegistry delegate = new InMemoryRegistry();

		private final MutableClock clock;

		private final UnaryOperator<Instant> move;

		private boolean answered;

		FirstAnswerMovesTheClock(MutableClock clock, UnaryOperator<Instant> move) {
			this.clock = clock;
			this.move = move;
		}

		@Override
		public long allocate(long timestamp, long blockSize) {
			return this.delegate.allocate(timestamp, blockSize);
		}

		@Override
		public synchronized Reservation reserve(long timestamp, long blockSize) {
			long start = allocate(timestamp, blockSize);
			if (!this.answered) {
				this.answered = true;
				this.clock.set(this.move.apply(this.clock.instant()));
			}
			return new Reservation(start, this.clock.instant());
		}

	}

	/** Counts layout checks. */
	private record CountingLayoutChecks(Registry delegate, int[] checks) implements Registry {

		@Override
		public long allocate(long timestamp, long blockSize) {
			return this.delegate.allocate(timestamp, blockSize);
		}

		@Override
		public void checkLayout(CridLayout layout) {
			this.checks[0]++;
			this.delegate.checkLayout(layout);
		}

	}

}
