package dev.crid;

import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link CridNode} when the registry, the clock or the executor misbehave.
 */
class CridNodeFaultTest {

	private static final Instant EPOCH = CridLayout.DEFAULT_EPOCH;

	private static final Duration AWAIT = Duration.ofSeconds(10);

	// Just before the end of a second, so a node waiting for the next second notices the
	// test's move at once.
	private final MutableClock clock = new MutableClock(EPOCH.plusSeconds(500).plusMillis(999));

	private final RecordingRegistry registry = new RecordingRegistry(new InMemoryRegistry());

	@Test
	void registryFailureThatPassesIsRetriedWithinTheCallersTimeout() {
		IllegalStateException broken = new IllegalStateException("database is down");
		this.registry.then(RecordingRegistry.Answer.fail(broken)).then(RecordingRegistry.Answer.fail(broken));
		try (CridNode node = node().threshold(0).build()) {
			assertThat(node.nextId()).isNotNegative();
			CridStats stats = node.stats();
			assertThat(stats.synchronousAllocations().failures()).isEqualTo(2);
			assertThat(stats.synchronousAllocations().successes()).isOne();
			assertThat(stats.consecutiveFailures()).isZero();
			assertThat(stats.lastFailure()).contains("database is down");
			assertThat(stats.lastFailureTime()).isEqualTo(this.clock.instant());
			assertThat(stats.stalls()).isOne();
			assertThat(this.registry.callCount()).isEqualTo(3);
		}
	}

	@Test
	void registryThatKeepsFailingFailsTheCallerAtItsTimeoutNamingTheRootCause() {
		RuntimeException refused = new IllegalStateException("pool gave no connection",
				new java.net.ConnectException("Connection refused"));
		this.registry.otherwise(RecordingRegistry.Answer.fail(refused));
		Duration timeout = Duration.ofMillis(500);
		try (CridNode node = node().threshold(0).allocationTimeout(timeout).build()) {
			long started = System.nanoTime();
			assertThatExceptionOfType(RegistryException.class).isThrownBy(node::nextId)
				.withMessageContaining("within the allocation timeout of PT0.5S")
				.withMessageContaining("Connection refused")
				.withRootCauseInstanceOf(java.net.ConnectException.class);
			Duration waited = Duration.ofNanos(System.nanoTime() - started);
			assertThat(waited).isGreaterThanOrEqualTo(timeout).isLessThan(timeout.plusSeconds(2));
			assertThat(this.registry.callCount()).as("asked again and again, with backoff").isBetween(3, 30);
			// The node keeps asking in the background, so one more call may have begun
			// since the failure.
			long failures = node.stats().consecutiveFailures();
			assertThat(this.registry.callCount()).isBetween((int) failures, (int) failures + 1);
			assertThat(node.stats().lastFailure()).contains("Connection refused");
			this.registry.heal();
			assertThat(node.nextId()).isNotNegative();
			assertThat(node.stats().consecutiveFailures()).isZero();
		}
	}

	@Test
	void callerRidesOutAnOutageShorterThanItsTimeout() {
		long outageEnds = System.nanoTime() + Duration.ofMillis(1_500).toNanos();
		this.registry.otherwise((delegate, timestamp, blockSize) -> {
			if (System.nanoTime() < outageEnds) {
				throw new IllegalStateException("Connection refused");
			}
			return delegate.allocate(timestamp, blockSize);
		});
		try (CridNode node = node().threshold(0).allocationTimeout(Duration.ofSeconds(4)).build()) {
			long id = node.nextId();
			long answered = System.nanoTime();
			assertThat(id).isNotNegative();
			assertThat(answered).as("answered after the outage").isGreaterThanOrEqualTo(outageEnds);
			assertThat(Duration.ofNanos(answered - outageEnds)).as("soon after the outage")
				.isLessThan(Duration.ofMillis(1_000));
			assertThat(node.stats().synchronousAllocations().failures()).isGreaterThan(3);
		}
	}

	@Test
	@Timeout(value = 20, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
	void failureWhoseCausesFormACycleIsStillRecorded() {
		IllegalStateException outer = new IllegalStateException("outer");
		IllegalArgumentException inner = new IllegalArgumentException("inner");
		outer.initCause(inner);
		inner.initCause(outer);
		this.registry.otherwise(RecordingRegistry.Answer.fail(outer));
		try (CridNode node = node().threshold(0).allocationTimeout(Duration.ofMillis(200)).build()) {
			assertThatExceptionOfType(RegistryException.class).isThrownBy(node::nextId)
				.withMessageContaining("outer")
				.withMessageContaining("inner");
			assertThat(node.stats().lastFailure()).contains("outer", "inner").hasSizeLessThan(2_000);
			this.registry.heal();
			assertThat(node.nextId()).isNotNegative();
		}
	}

	@Test
	void registryFailureThatCannotPassReachesTheCallerAtOnceUnwrapped() {
		RegistryException refused = new RegistryException("table is missing", null, false);
		this.registry.then(RecordingRegistry.Answer.fail(refused));
		try (CridNode node = node().threshold(0).build()) {
			long started = System.nanoTime();
			assertThatExceptionOfType(RegistryException.class).isThrownBy(node::nextId).isSameAs(refused);
			assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(2));
			assertThat(this.registry.callCount()).isOne();
			assertThat(node.nextId()).isNotNegative();
		}
	}

	@Test
	void registryThatThrowsAnErrorDoesNotLeaveTheNodeStuck() {
		this.registry.otherwise((delegate, timestamp, blockSize) -> {
			throw new AssertionError("driver bug");
		});
		try (CridNode node = node().threshold(0).allocationTimeout(Duration.ofMillis(500)).build()) {
			assertThatExceptionOfType(RegistryException.class).isThrownBy(node::nextId)
				.withMessageContaining("driver bug")
				.withRootCauseInstanceOf(AssertionError.class);
			assertThat(node.stats().lastFailure()).contains("driver bug");
			this.registry.heal();
			long started = System.nanoTime();
			assertThat(node.nextId()).isNotNegative();
			assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(1));
		}
	}

	@Test
	void slowRegistryFailsTheCallerWithinTheAllocationTimeout() {
		Gate gate = new Gate();
		this.registry.then(gate);
		Duration timeout = Duration.ofMillis(300);
		try (CridNode node = node().threshold(0).allocationTimeout(timeout).build()) {
			long started = System.nanoTime();
			assertThatExceptionOfType(RegistryException.class).isThrownBy(node::nextId)
				.withMessageContaining("allocation timeout")
				.withMessageContaining("PT0.3S");
			Duration waited = Duration.ofNanos(System.nanoTime() - started);
			assertThat(waited).isGreaterThanOrEqualTo(timeout).isLessThan(timeout.plusSeconds(2));
			assertThat(node.stats().stalls()).isOne();
			gate.open();
			await().atMost(AWAIT).until(() -> node.stats().nextBlockReady());
			assertThat(node.layout().sequenceOf(node.nextId())).isZero();
			assertThat(this.registry.callCount()).as("the late answer is used, not thrown away").isOne();
		}
	}

	@Test
	void noLockIsHeldWhileTheRegistryIsCalled() throws Exception {
		Gate gate = new Gate();
		this.registry.then(gate);
		try (CridNode node = node().allocationTimeout(Duration.ofSeconds(20)).build()) {
			CompletableFuture<Long> waiting = CompletableFuture.supplyAsync(node::nextId);
			await().atMost(AWAIT).until(() -> gate.entered() == 1);
			assertThat(CompletableFuture.supplyAsync(node::stats).get(2, TimeUnit.SECONDS).stalls()).isOne();
			assertThat(CompletableFuture.supplyAsync(node::isClosed).get(2, TimeUnit.SECONDS)).isFalse();
			assertThat(waiting).isNotDone();
			gate.open();
			assertThat(waiting.get(10, TimeUnit.SECONDS)).isNotNegative();
		}
	}

	@Test
	void negativeStartFailsOneCallAndTheNextCallReservesAfresh() {
		this.registry.then(RecordingRegistry.Answer.start(-5));
		try (CridNode node = node().threshold(0).build()) {
			assertThatExceptionOfType(InvalidSequenceException.class).isThrownBy(node::nextId)
				.withMessageContaining("-5")
				.withMessageContaining("[0, " + CridLayout.DEFAULT.maxSequence() + "]");
			long id = node.nextId();
			assertThat(node.layout().sequenceOf(id)).isZero();
			assertThat(this.registry.calls()).extracting(RecordingRegistry.Call::start).containsExactly(-5L, 0L);
			assertThat(node.stats().synchronousAllocations())
				.isEqualTo(new CridStats.Allocations(1, 1, node.stats().synchronousAllocations().totalTime()));
		}
	}

	@Test
	void negativeStartInAPrefetchIsRetriedAndNeverReachesCallers() {
		try (CridNode node = node().blockSize(10).threshold(5).build()) {
			node.nextId();
			this.registry.then(RecordingRegistry.Answer.start(-1)).then(RecordingRegistry.Answer.start(Long.MIN_VALUE));
			for (int i = 1; i < 6; i++) {
				node.nextId();
			}
			await().atMost(AWAIT).until(() -> node.stats().nextBlockReady());
			Set<Long> ids = new HashSet<>();
			for (int i = 6; i < 20; i++) {
				assertThat(ids.add(node.nextId())).isTrue();
			}
			CridStats stats = node.stats();
			assertThat(stats.prefetchAllocations().failures()).isEqualTo(2);
			assertThat(stats.prefetchAllocations().successes()).isGreaterThanOrEqualTo(1);
			assertThat(stats.lastFailure()).contains("InvalidSequenceException");
			assertThat(stats.stalls()).isOne();
		}
	}

	@Test
	void prefetchFailingThenRecoveringIsRecordedButNeverSeenByCallers() {
		try (CridNode node = node().blockSize(100).threshold(50).build()) {
			node.nextId();
			this.registry.otherwise(RecordingRegistry.Answer.fail(new IllegalStateException("flaky network")));
			for (int i = 1; i < 51; i++) {
				node.nextId();
			}
			await().atMost(AWAIT).until(() -> node.stats().prefetchAllocations().failures() >= 3);
			CridStats failing = node.stats();
			assertThat(failing.consecutiveFailures()).isGreaterThanOrEqualTo(3);
			assertThat(failing.lastFailure()).contains("flaky network");
			assertThat(failing.nextBlockReady()).isFalse();
			this.registry.heal();
			await().atMost(AWAIT).until(() -> node.stats().nextBlockReady());
			for (int i = 51; i < 150; i++) {
				node.nextId();
			}
			CridStats recovered = node.stats();
			assertThat(recovered.consecutiveFailures()).isZero();
			assertThat(recovered.prefetchAllocations().successes()).isGreaterThanOrEqualTo(1);
			assertThat(recovered.prefetchAllocations().failures()).isGreaterThanOrEqualTo(3);
			assertThat(recovered.synchronousAllocations()).extracting(CridStats.Allocations::count).isEqualTo(1L);
			assertThat(recovered.stalls()).as("callers never waited after the first block").isOne();
			assertThat(recovered.lastFailure()).contains("flaky network");
			assertThat(recovered.idsIssued()).isEqualTo(150);
		}
	}

	@Test
	void prefetchRetriesBackOff() {
		try (CridNode node = node().blockSize(100).threshold(50).build()) {
			node.nextId();
			this.registry.otherwise(RecordingRegistry.Answer.fail(new IllegalStateException("down")));
			for (int i = 1; i < 51; i++) {
				node.nextId();
			}
			await().atMost(AWAIT).until(() -> this.registry.callCount() >= 6);
			List<RecordingRegistry.Call> calls = this.registry.calls();
			// Calls 2 to 6 are the first attempt and four retries; each retry waits at
			// least twice as long as the one before, starting at 10 ms. Without backoff
			// they would follow each other at once.
			for (int retry = 1; retry <= 4; retry++) {
				long gapMillis = TimeUnit.NANOSECONDS
					.toMillis(calls.get(retry + 1).calledAt() - calls.get(retry).calledAt());
				assertThat(gapMillis).as("delay before retry %d", retry).isGreaterThanOrEqualTo(10L << (retry - 1));
			}
			assertThat(node.stats().prefetchAllocations().failures()).isGreaterThanOrEqualTo(5);
			assertThat(node.stats().stalls()).isOne();
		}
	}

	@Test
	void nodeLeftWithoutIdsKeepsAskingInTheBackgroundAndHasABlockReadyWhenTheRegistryReturns() {
		try (CridNode node = node().blockSize(100).threshold(50).allocationTimeout(Duration.ofMillis(300)).build()) {
			for (int i = 0; i < 100; i++) {
				node.nextId();
				if (i == 0) {
					this.registry.otherwise(RecordingRegistry.Answer.fail(new IllegalStateException("down")));
				}
			}
			assertThatExceptionOfType(RegistryException.class).isThrownBy(node::nextId);
			// Nobody calls any more, as on an instance drained by its load balancer
			// during the outage.
			int callsWhenTheCallerGaveUp = this.registry.callCount();
			await().atMost(AWAIT).until(() -> this.registry.callCount() >= callsWhenTheCallerGaveUp + 3);
			this.registry.heal();
			await().atMost(AWAIT).until(() -> node.stats().nextBlockReady());
			assertThat(node.stats().consecutiveFailures()).isZero();
			long stalls = node.stats().stalls();
			assertThat(node.nextId()).isNotNegative();
			assertThat(node.stats().stalls()).as("the first call after the outage found a block").isEqualTo(stalls);
		}
	}

	@Test
	void closeStopsPrefetchRetries() {
		CridNode node = node().blockSize(100).threshold(50).build();
		node.nextId();
		this.registry.otherwise(RecordingRegistry.Answer.fail(new IllegalStateException("down")));
		for (int i = 1; i < 51; i++) {
			node.nextId();
		}
		await().atMost(AWAIT).until(() -> this.registry.callCount() >= 3);
		node.close();
		int calls = this.registry.callCount();
		// The retry already scheduled may still ask; nothing after it may.
		await().during(Duration.ofSeconds(1))
			.atMost(Duration.ofSeconds(5))
			.until(() -> this.registry.callCount() <= calls + 1);
	}

	@Test
	void startBeyondTheMaxSequenceMakesTheNodeWaitForTheNextSecond() throws Exception {
		long maxSequence = CridLayout.DEFAULT.maxSequence();
		this.registry.then(RecordingRegistry.Answer.start(maxSequence + 1));
		try (CridNode node = node().threshold(0).allocationTimeout(Duration.ofSeconds(20)).build()) {
			CompletableFuture<Long> waiting = CompletableFuture.supplyAsync(node::nextId);
			await().atMost(AWAIT).until(() -> this.registry.callCount() == 1);
			// The clock stands still in second 500: the caller must keep waiting, neither
			// fail nor go on.
			await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2)).until(() -> !waiting.isDone());
			assertThat(this.registry.callCount()).isOne();
			this.clock.advance(Duration.ofSeconds(1));
			long id = waiting.get(10, TimeUnit.SECONDS);
			assertThat(node.layout().timestampOf(id)).isEqualTo(501);
			assertThat(node.layout().sequenceOf(id)).isZero();
			assertThat(this.registry.calls()).extracting(RecordingRegistry.Call::timestamp).containsExactly(500L, 501L);
			assertThat(node.stats().synchronousAllocations().failures()).isZero();
		}
	}

	@Test
	void secondThatDoesNotEndWithinTheTimeoutFailsWithSequenceOverflow() {
		this.registry.otherwise(RecordingRegistry.Answer.start(CridLayout.DEFAULT.maxSequence() + 1));
		Duration timeout = Duration.ofMillis(400);
		try (CridNode node = node().threshold(0).allocationTimeout(timeout).build()) {
			long started = System.nanoTime();
			assertThatExceptionOfType(SequenceOverflowException.class).isThrownBy(node::nextId)
				.withMessageContaining("500");
			assertThat(Duration.ofNanos(System.nanoTime() - started)).as("waited for the next second until the timeout")
				.isGreaterThanOrEqualTo(timeout)
				.isLessThan(timeout.plusSeconds(2));
			this.registry.heal();
			this.clock.advance(Duration.ofSeconds(1));
			assertThat(node.layout().timestampOf(node.nextId())).isEqualTo(501);
		}
	}

	@Test
	void usedUpSecondInASmallLayoutWaitsForTheNextSecondAndNeverRepeats() throws Exception {
		// 4 sequence bits: 16 IDs per second across every node that shares the registry.
		try (CridNode first = node().timestampBits(59)
			.sequenceBits(4)
			.blockSize(4)
			.threshold(2)
			.allocationTimeout(Duration.ofSeconds(20))
			.build();
				CridNode second = node().timestampBits(59)
					.sequenceBits(4)
					.blockSize(3)
					.threshold(0)
					.allocationTimeout(Duration.ofSeconds(20))
					.build()) {
			Set<Long> ids = ConcurrentHashMap.newKeySet();
			CompletableFuture<Void> taking = CompletableFuture.runAsync(() -> {
				for (int i = 0; i < 25; i++) {
					assertThat(ids.add(first.nextId())).isTrue();
					assertThat(ids.add(second.nextId())).isTrue();
				}
			});
			int secondsUsedUp = 0;
			while (!taking.isDone() && secondsUsedUp < 10) {
				long timestamp = first.layout().timestampAt(this.clock.instant());
				await().atMost(AWAIT).until(() -> taking.isDone() || usedUp(timestamp));
				if (!taking.isDone()) {
					// The second is used up and the clock stands still: no ID of a later
					// second may appear.
					await().during(Duration.ofMillis(100))
						.atMost(Duration.ofSeconds(1))
						.until(() -> ids.stream().noneMatch((id) -> first.layout().timestampOf(id) > timestamp));
					secondsUsedUp++;
					this.clock.advance(Duration.ofSeconds(1));
				}
			}
			taking.get(10, TimeUnit.SECONDS);
			CridLayout layout = first.layout();
			assertThat(ids).hasSize(50);
			assertThat(secondsUsedUp).isGreaterThanOrEqualTo(3);
			for (long timestamp = 500; timestamp < 500 + secondsUsedUp; timestamp++) {
				long inSecond = timestamp;
				assertThat(ids.stream().filter((id) -> layout.timestampOf(id) == inSecond))
					.as("IDs of second %d", timestamp)
					.hasSizeBetween(10, 16);
			}
			assertThat(first.stats().synchronousAllocations().failures()
					+ second.stats().synchronousAllocations().failures())
				.isZero();
		}
	}

	private boolean usedUp(long timestamp) {
		return this.registry.calls().stream().anyMatch((call) -> call.timestamp() == timestamp && call.start() > 15);
	}

	@Test
	void blockCrossingTheMaxSequenceIsClamped() {
		long maxSequence = CridLayout.DEFAULT.maxSequence();
		this.registry.then(RecordingRegistry.Answer.start(maxSequence - 2));
		try (CridNode node = node().blockSize(10).threshold(0).build()) {
			CridLayout layout = node.layout();
			assertThat(layout.sequenceOf(node.nextId())).isEqualTo(maxSequence - 2);
			assertThat(node.stats().idsLeftInBlock()).isEqualTo(2);
			assertThat(layout.sequenceOf(node.nextId())).isEqualTo(maxSequence - 1);
			long last = node.nextId();
			assertThat(layout.sequenceOf(last)).isEqualTo(maxSequence);
			assertThat(layout.timestampOf(last)).isEqualTo(500);
			this.clock.advance(Duration.ofSeconds(1));
			long next = node.nextId();
			assertThat(layout.timestampOf(next)).isEqualTo(501);
			assertThat(layout.sequenceOf(next)).isZero();
			assertThat(this.registry.callCount()).isEqualTo(2);
		}
	}

	@Test
	void blockCrossingTheMaxSequenceIsClampedInTheWidestSequenceLayout() {
		// Long.MAX_VALUE is how a registry says "used up" whatever the layout, so it is
		// never served.
		this.registry.then(RecordingRegistry.Answer.start(Long.MAX_VALUE - 3));
		this.registry.then(RecordingRegistry.Answer.start(Long.MAX_VALUE));
		Instant epoch = this.clock.instant().truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
		try (CridNode node = node().epoch(epoch)
			.timestampBits(0)
			.sequenceBits(63)
			.blockSize(1_000)
			.threshold(0)
			.allocationTimeout(Duration.ofMillis(200))
			.build()) {
			assertThat(node.nextId()).isEqualTo(Long.MAX_VALUE - 3);
			assertThat(node.nextId()).isEqualTo(Long.MAX_VALUE - 2);
			assertThat(node.nextId()).isEqualTo(Long.MAX_VALUE - 1);
			assertThatExceptionOfType(SequenceOverflowException.class).isThrownBy(node::nextId);
		}
	}

	@Test
	void clockBeforeTheEpochFailsTheCallAndTheNodeRecoversWithTheClock() {
		try (CridNode node = node().threshold(0).blockSize(2).build()) {
			node.nextId();
			node.nextId();
			this.clock.set(EPOCH.minusMillis(1));
			assertThatExceptionOfType(ClockBeforeEpochException.class).isThrownBy(node::nextId)
				.withMessageContaining(EPOCH.minusMillis(1).toString());
			this.clock.set(EPOCH.plusSeconds(501));
			assertThat(node.layout().timestampOf(node.nextId())).isEqualTo(501);
		}
	}

	@Test
	void clockPastTheLastTimestampFailsWithTimestampOverflow() {
		try (CridNode node = node().timestampBits(9).sequenceBits(54).threshold(0).blockSize(1).build()) {
			assertThat(node.layout().timestampOf(node.nextId())).isEqualTo(500);
			this.clock.set(EPOCH.plusSeconds(511));
			assertThat(node.layout().timestampOf(node.nextId())).isEqualTo(511);
			this.clock.set(EPOCH.plusSeconds(512));
			assertThatExceptionOfType(TimestampOverflowException.class).isThrownBy(node::nextId)
				.withMessageContaining("511");
			assertThat(this.registry.callCount()).isEqualTo(2);
		}
	}

	@Test
	void executorThatRefusesTheTaskFailsTheCallAtItsTimeoutAndDoesNotLeaveTheNodeStuck() {
		AtomicBoolean refuse = new AtomicBoolean(true);
		Executor executor = (task) -> {
			if (refuse.get()) {
				throw new RejectedExecutionException("queue full");
			}
			task.run();
		};
		Duration timeout = Duration.ofMillis(300);
		try (CridNode node = node().threshold(0).allocationTimeout(timeout).prefetchExecutor(executor).build()) {
			long started = System.nanoTime();
			assertThatExceptionOfType(RegistryException.class).isThrownBy(node::nextId)
				.withMessageContaining("refused")
				.withRootCauseInstanceOf(RejectedExecutionException.class);
			assertThat(Duration.ofNanos(System.nanoTime() - started)).as("kept trying until the timeout")
				.isGreaterThanOrEqualTo(timeout)
				.isLessThan(timeout.plusSeconds(2));
			assertThat(node.stats().synchronousAllocations().failures()).isGreaterThan(1);
			refuse.set(false);
			assertThat(node.nextId()).isNotNegative();
		}
	}

	@Test
	void executorThatThrowsSomethingElseDoesNotLeaveTheNodeStuck() {
		AtomicBoolean broken = new AtomicBoolean(true);
		Executor executor = (task) -> {
			if (broken.get()) {
				throw new IllegalStateException("executor is shutting down");
			}
			task.run();
		};
		try (CridNode node = node().threshold(0)
			.allocationTimeout(Duration.ofMillis(300))
			.prefetchExecutor(executor)
			.build()) {
			assertThatExceptionOfType(RegistryException.class).isThrownBy(node::nextId)
				.withMessageContaining("executor is shutting down");
			broken.set(false);
			long started = System.nanoTime();
			assertThat(node.nextId()).isNotNegative();
			assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(1));
		}
	}

	@Test
	void interruptedCallerStopsWaitingAndKeepsItsInterruptFlag() throws Exception {
		Gate gate = new Gate();
		this.registry.then(gate);
		try (CridNode node = node().threshold(0).allocationTimeout(Duration.ofSeconds(20)).build()) {
			CompletableFuture<Throwable> failure = new CompletableFuture<>();
			CompletableFuture<Boolean> interruptFlag = new CompletableFuture<>();
			Thread caller = new Thread(() -> {
				try {
					node.nextId();
				}
				catch (RuntimeException ex) {
					failure.complete(ex);
				}
				interruptFlag.complete(Thread.currentThread().isInterrupted());
			}, "interrupted-caller");
			caller.start();
			await().atMost(AWAIT).until(() -> gate.entered() == 1);
			caller.interrupt();
			assertThat(failure.get(10, TimeUnit.SECONDS)).isInstanceOf(RegistryException.class)
				.hasMessageContaining("Interrupted")
				.hasCauseInstanceOf(InterruptedException.class);
			assertThat(interruptFlag.get(10, TimeUnit.SECONDS)).isTrue();
			gate.open();
			assertThat(node.nextId()).isNotNegative();
		}
	}

	@Test
	void closeWhileWaitingForTheNextSecondReleasesTheCaller() throws Exception {
		this.registry.otherwise(RecordingRegistry.Answer.start(CridLayout.DEFAULT.maxSequence() + 1));
		CridNode node = node().threshold(0).allocationTimeout(Duration.ofSeconds(20)).build();
		CompletableFuture<Long> waiting = CompletableFuture.supplyAsync(node::nextId);
		await().atMost(AWAIT).until(() -> this.registry.callCount() == 1);
		Thread thread = this.registry.calls().get(0).thread();
		node.close();
		assertThat(waiting).failsWithin(Duration.ofSeconds(5))
			.withThrowableOfType(ExecutionException.class)
			.withCauseInstanceOf(NodeClosedException.class);
		await().atMost(AWAIT).until(() -> !thread.isAlive());
		assertThat(this.registry.callCount()).isOne();
	}

	@Test
	void clockThatThrowsFailsTheCallAndTheNodeGoesOn() {
		AtomicBoolean broken = new AtomicBoolean();
		java.time.Clock clock = new java.time.Clock() {

			@Override
			public Instant instant() {
				if (broken.get()) {
					throw new java.time.DateTimeException("clock source unavailable");
				}
				return CridNodeFaultTest.this.clock.instant();
			}

			@Override
			public java.time.ZoneId getZone() {
				return java.time.ZoneOffset.UTC;
			}

			@Override
			public java.time.Clock withZone(java.time.ZoneId zone) {
				throw new UnsupportedOperationException();
			}

		};
		try (CridNode node = CridNode.builder(this.registry).clock(clock).threshold(0).build()) {
			broken.set(true);
			long started = System.nanoTime();
			assertThatExceptionOfType(RegistryException.class).isThrownBy(node::nextId)
				.withMessageContaining("clock source unavailable")
				.withCauseInstanceOf(java.time.DateTimeException.class);
			assertThat(Duration.ofNanos(System.nanoTime() - started)).as("failed at once, not after the timeout")
				.isLessThan(Duration.ofSeconds(2));
			assertThat(node.stats().lastFailure()).contains("clock source unavailable");
			assertThat(node.stats().lastFailureTime()).isNotNull();
			broken.set(false);
			assertThat(node.nextId()).isNotNegative();
		}
	}

	@Test
	void virtualMachineErrorFromTheRegistryIsRecordedAndTheNodeGoesOn() {
		this.registry.then((delegate, timestamp, blockSize) -> {
			throw new StackOverflowError("deep recursion in the driver");
		});
		try (CridNode node = node().threshold(0).allocationTimeout(Duration.ofSeconds(5)).build()) {
			long started = System.nanoTime();
			assertThat(node.nextId()).isNotNegative();
			assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(2));
			assertThat(node.stats().synchronousAllocations().failures()).isOne();
			assertThat(node.stats().lastFailure()).contains("StackOverflowError", "deep recursion in the driver");
			assertThat(this.registry.calls().get(0).failure()).isInstanceOf(StackOverflowError.class);
		}
	}

	@Test
	void callersWaitingForAFailedAttemptGetTheRetrysBlock() throws Exception {
		Gate gate = new Gate();
		this.registry.then((delegate, timestamp, blockSize) -> {
			gate.answer(delegate, timestamp, blockSize);
			throw new IllegalStateException("lost connection");
		});
		try (CridNode node = node().threshold(0).allocationTimeout(Duration.ofSeconds(20)).build()) {
			CompletableFuture<Long> one = CompletableFuture.supplyAsync(node::nextId);
			CompletableFuture<Long> two = CompletableFuture.supplyAsync(node::nextId);
			await().atMost(AWAIT).until(() -> gate.entered() == 1 && node.stats().stalls() == 2);
			gate.open();
			assertThat(one.get(10, TimeUnit.SECONDS)).isNotNegative();
			assertThat(two.get(10, TimeUnit.SECONDS)).isNotNegative().isNotEqualTo(one.get());
			assertThat(this.registry.callCount()).isEqualTo(2);
			assertThat(node.stats().synchronousAllocations().failures()).isOne();
			assertThat(node.stats().lastFailure()).contains("lost connection");
		}
	}

	@Test
	void callerThatJoinedAnotherCallersAttemptForAUsedUpSecondGetsTheNextSecond() throws Exception {
		this.registry.otherwise(RecordingRegistry.Answer.start(CridLayout.DEFAULT.maxSequence() + 1));
		// The second caller comes a second after the first, so that a second of its
		// budget is left when the first one's ends: time for the registry to heal and the
		// clock to step, however late a loaded machine runs the threads.
		try (CridNode node = node().threshold(0).allocationTimeout(Duration.ofSeconds(2)).build()) {
			CompletableFuture<Long> first = CompletableFuture.supplyAsync(node::nextId);
			await().atMost(AWAIT).until(() -> node.stats().stalls() == 1);
			Thread.sleep(1_000);
			CompletableFuture<Long> second = CompletableFuture.supplyAsync(node::nextId);
			await().atMost(AWAIT).until(() -> node.stats().stalls() == 2);
			assertThat(first).failsWithin(Duration.ofSeconds(5))
				.withThrowableOfType(ExecutionException.class)
				.withCauseInstanceOf(SequenceOverflowException.class);
			this.registry.heal();
			this.clock.advance(Duration.ofSeconds(1));
			assertThat(node.layout().timestampOf(second.get(5, TimeUnit.SECONDS))).isEqualTo(501);
		}
	}

	private CridNode.Builder node() {
		return CridNode.builder(this.registry).clock(this.clock);
	}

}
