package dev.crid;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Each path a review of the node found that could wedge it, hold a caller too long, leak
 * threads, report a registry that went back when none did, or serve after
 * {@code close()}: one test each, each failing with the fix reverted.
 */
class CridNodeFailurePathsTest {

	private static final Duration AWAIT = Duration.ofSeconds(10);

	private final MutableClock clock = new MutableClock(CridLayout.DEFAULT_EPOCH.plusSeconds(500));

	private final RecordingRegistry registry = new RecordingRegistry(new InMemoryRegistry());

	@Test
	void registryThatThrowsACheckedExceptionUndeclaredFailsTheCallAndTheNodeServesOnceItHeals() {
		AtomicInteger calls = new AtomicInteger();
		this.registry.otherwise((delegate, timestamp, blockSize) -> {
			if (calls.incrementAndGet() == 1) {
				throw CridNodeFailurePathsTest.<RuntimeException>sneaky(new IOException("connection reset by peer"));
			}
			return delegate.allocate(timestamp, blockSize);
		});
		try (CridNode node = node().allocationTimeout(Duration.ofMillis(300)).build()) {
			long started = System.nanoTime();
			// Retried within the timeout: the first call fails, the retry after it
			// reaches the delegate.
			long id = node.nextId();
			assertThat(id).isNotNegative();
			assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(300));
			assertThat(calls).hasValue(2);
			assertThat(node.stats().lastFailure()).contains("IOException", "connection reset by peer");
		}
	}

	@Test
	void failureHandlerThatThrowsAnErrorDuringBackgroundRetriesDoesNotWedgeTheNode() {
		AtomicBoolean failing = new AtomicBoolean(true);
		this.registry.otherwise((delegate, timestamp, blockSize) -> {
			if (failing.get()) {
				throw new IllegalStateException("database restarting");
			}
			return delegate.allocate(timestamp, blockSize);
		});
		AtomicInteger handled = new AtomicInteger();
		try (CridNode node = node().blockSize(100)
			.threshold(50)
			.allocationTimeout(Duration.ofMillis(500))
			.onPrefetchFailure((failure) -> {
				handled.incrementAndGet();
				throw new AssertionError("a handler that throws an Error");
			})
			.build()) {
			failing.set(false);
			node.warmUp();
			failing.set(true);
			for (int i = 0; i < 60; i++) {
				node.nextId(); // passes the trigger: the prefetch fails in the
								// background, its handler throws
			}
			await().atMost(AWAIT).until(() -> handled.get() >= 2);
			failing.set(false);
			// The background reservation ended with the handler's Error; a caller must
			// get a block at once.
			long started = System.nanoTime();
			for (int i = 0; i < 200; i++) {
				assertThat(node.nextId()).isNotNegative();
			}
			assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(500));
		}
	}

	@Test
	void reservationEndedByAVirtualMachineErrorTellsItsWaitingCallerAtOnceNotAtItsDeadline() throws Exception {
		AtomicBoolean failing = new AtomicBoolean();
		this.registry.otherwise((delegate, timestamp, blockSize) -> {
			if (failing.get()) {
				throw new IllegalStateException("database restarting");
			}
			return delegate.allocate(timestamp, blockSize);
		});
		CountDownLatch callerWaits = new CountDownLatch(1);
		AtomicBoolean thrown = new AtomicBoolean();
		Duration timeout = Duration.ofSeconds(5);
		try (CridNode node = node().blockSize(100)
			.threshold(50)
			.allocationTimeout(timeout)
			.onPrefetchFailure((failure) -> {
				if (thrown.compareAndSet(false, true)) {
					awaitUninterruptibly(callerWaits);
					failing.set(false);
					// Rethrown by the node, it ends the reservation's run with its result
					// not yet complete: the run's end must complete it, or the caller
					// waiting for it waits its whole budget.
					throw new StackOverflowError("a handler that overflows its stack");
				}
			})
			.build()) {
			node.warmUp();
			failing.set(true);
			for (int i = 0; i < 60; i++) {
				node.nextId(); // passes the trigger: the prefetch fails and the handler
								// holds its thread
			}
			CompletableFuture<Duration> caller = CompletableFuture.supplyAsync(() -> {
				long started = System.nanoTime();
				try {
					for (int i = 0; i < 41; i++) {
						node.nextId(); // at most 40 are left: one of these finds the
										// block used up and waits
					}
				}
				catch (CridException ex) {
					// told of the failure: what matters is when
				}
				return Duration.ofNanos(System.nanoTime() - started);
			});
			await().atMost(AWAIT).until(() -> node.stats().stalls() > 0);
			callerWaits.countDown();
			// At once is milliseconds; the bound is half the budget the caller would
			// otherwise wait.
			assertThat(caller.get(AWAIT.toMillis(), TimeUnit.MILLISECONDS)).isLessThan(timeout.dividedBy(2));
			assertThat(node.nextId()).isNotNegative();
		}
	}

	@Test
	void lateAnswerOfACallGivenUpOnIsNotTakenForARegistryThatWentBack() {
		// The given-up call commits the block below the fresh call's, but its answer
		// comes after it.
		assertNoFalseWentBack(true);
	}

	@Test
	void lateAnswerOfACallGivenUpOnDoesNotMakeTheNodeRefuseTheFreshCallsBlock() {
		// The fresh call commits first and gets the lower block; the given-up call's
		// answer comes first.
		assertNoFalseWentBack(false);
	}

	/**
	 * A call that hangs past the timeout commits its block at a moment the test picks,
	 * while a fresh call gets the other block; both answers reach the node, in the order
	 * given.
	 */
	private void assertNoFalseWentBack(boolean givenUpCommitsFirst) {
		CountDownLatch stuckMayCommit = new CountDownLatch(1);
		CountDownLatch stuckCommitted = new CountDownLatch(1);
		CountDownLatch stuckMayAnswer = new CountDownLatch(1);
		AtomicInteger calls = new AtomicInteger();
		this.registry.otherwise((delegate, timestamp, blockSize) -> {
			int call = calls.incrementAndGet();
			if (call == 1) {
				awaitUninterruptibly(stuckMayCommit);
				long start = delegate.allocate(timestamp, blockSize);
				stuckCommitted.countDown();
				awaitUninterruptibly(stuckMayAnswer);
				return start;
			}
			if (call == 2 && givenUpCommitsFirst) {
				stuckMayCommit.countDown();
				awaitUninterruptibly(stuckCommitted);
			}
			long start = delegate.allocate(timestamp, blockSize);
			if (call == 2 && !givenUpCommitsFirst) {
				stuckMayCommit.countDown();
				awaitUninterruptibly(stuckCommitted);
				stuckMayAnswer.countDown(); // the given-up call answers before this one
				while (this.registry.callCount() == 0) {
					Thread.onSpinWait();
				}
				sleep(Duration.ofMillis(20)); // for the node to take, or drop, the answer
												// it has just had
			}
			return start;
		});
		try (LogRecorder log = new LogRecorder();
				CridNode node = node().blockSize(10).threshold(0).allocationTimeout(Duration.ofSeconds(1)).build()) {
			assertThatExceptionOfType(RegistryException.class).isThrownBy(node::nextId);
			sleep(Duration.ofMillis(1_100)); // the call is past the timeout and its
												// grace: stuck
			long id = node.nextId(); // gives up on the stuck call and makes a fresh one
			if (givenUpCommitsFirst) {
				stuckMayAnswer.countDown();
			}
			await("both calls answered").atMost(AWAIT).until(() -> this.registry.callCount() >= 2);
			Set<Long> ids = new HashSet<>();
			ids.add(id);
			for (int i = 0; i < 25; i++) {
				ids.add(node.nextId());
			}
			assertThat(ids).hasSize(26);
			assertThat(node.stats().registryWentBack()).isZero();
			assertThat(log.warnings()).noneMatch((warning) -> warning.contains("went back"));
		}
		finally {
			stuckMayCommit.countDown();
			stuckMayAnswer.countDown();
		}
	}

	@Test
	void callerThatFindsTheReservationStuckStartsAfreshInsteadOfWaitingItsWholeBudget() {
		CountDownLatch release = new CountDownLatch(1);
		AtomicInteger calls = new AtomicInteger();
		this.registry.otherwise((delegate, timestamp, blockSize) -> {
			if (calls.incrementAndGet() == 2) {
				awaitQuietly(release, Duration.ofMillis(1_500)); // the prefetch is stuck
																	// for 1.5 s
			}
			return delegate.allocate(timestamp, blockSize);
		});
		Duration timeout = Duration.ofMillis(500);
		try (CridNode node = node().blockSize(100).threshold(50).allocationTimeout(timeout).build()) {
			for (int i = 0; i < 60; i++) {
				node.nextId(); // the prefetch starts and gets stuck
			}
			await().atMost(AWAIT).until(() -> calls.get() == 2);
			sleep(timeout.multipliedBy(2).plusMillis(100)); // past the timeout and its
															// grace: stuck now
			long started = System.nanoTime();
			for (int i = 0; i < 100; i++) {
				node.nextId(); // the block runs out: this caller finds the prefetch stuck
			}
			assertThat(Duration.ofNanos(System.nanoTime() - started)).as("the caller that found the call stuck")
				.isLessThan(Duration.ofMillis(250));
			release.countDown();
		}
	}

	@Test
	void callerWaitingForACallThatBecomesStuckBeforeItsDeadlineStartsAfreshAndSucceeds() {
		// Issue 17 item 3 the other way round: the caller arrives while the call is only
		// late, and the call is stuck (timeout plus grace) before the caller's deadline.
		// A caller that waited on until its deadline failed with no time left.
		Duration timeout = Duration.ofSeconds(1);
		SteppedTiming timing = new SteppedTiming();
		CountDownLatch hung = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		AtomicLong hungSince = new AtomicLong();
		AtomicInteger calls = new AtomicInteger();
		this.registry.otherwise((delegate, timestamp, blockSize) -> {
			if (calls.incrementAndGet() == 2) {
				hungSince.set(timing.nanoTime());
				hung.countDown();
				awaitUninterruptibly(release); // a read on a dead socket: giving up on it
												// does not end it
			}
			return delegate.allocate(timestamp, blockSize);
		});
		CridNode node = new CridNode(node().blockSize(100)
			.threshold(50)
			.allocationTimeout(timeout)
			.build()
			.settings()
			.with(timing, NodeSettings.IDLE_THREAD_TIMEOUT, false));
		try {
			for (int i = 0; i < 60; i++) {
				node.nextId(); // passes the trigger: the prefetch starts and hangs
			}
			assertThat(awaitQuietly(hung, AWAIT)).isTrue();
			// The node's clock moves to halfway between the call's timeout and the moment
			// it counts as stuck
			// (timeout + a grace as long): the next caller finds it late, not stuck, and
			// the call is stuck half a
			// timeout before that caller's deadline. Half a second each side is the
			// margin for a busy machine:
			// to reach the wait before the call is stuck, and to get the fresh block
			// after it.
			timing.stepTo(hungSince.get() + timeout.toNanos() * 3 / 2);
			for (int i = 0; i < 40; i++) {
				node.nextId(); // what is left of the block
			}
			long started = System.nanoTime();
			long id = node.nextId(); // waits for the prefetch, which becomes stuck
										// meanwhile
			assertThat(Duration.ofNanos(System.nanoTime() - started)).as("the caller's wait").isLessThan(timeout);
			assertThat(calls).as("a fresh call, made once the hung one was stuck").hasValue(3);
			assertThat(node.layout().sequenceOf(id)).as("the first ID of the fresh call's block").isEqualTo(100);
			assertThat(node.stats().lastFailure()).contains("Gave up", "the registry call did not return");
		}
		finally {
			release.countDown();
			node.close();
		}
	}

	@Test
	void registryCallsThatNeverReturnHoldTwoThreadsAtMostAndCloseReturnsSoon() {
		CountDownLatch release = new CountDownLatch(1);
		this.registry.otherwise((delegate, timestamp, blockSize) -> {
			awaitUninterruptibly(release);
			return delegate.allocate(timestamp, blockSize);
		});
		Set<Thread> before = Thread.getAllStackTraces().keySet();
		CridNode node = node().threshold(0).allocationTimeout(Duration.ofMillis(100)).build();
		try {
			long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
			while (System.nanoTime() < until) {
				assertThatExceptionOfType(RegistryException.class).isThrownBy(node::nextId);
			}
			assertThat(newNodeThreads(before)).as("threads holding registry calls that never return")
				.hasSizeLessThanOrEqualTo(2);
			long closing = System.nanoTime();
			node.close();
			assertThat(Duration.ofNanos(System.nanoTime() - closing)).isLessThan(Duration.ofMillis(1_500));
		}
		finally {
			release.countDown();
			node.close();
		}
		await().atMost(AWAIT).until(() -> newNodeThreads(before).isEmpty());
	}

	@Test
	void closeReturnsWithinASecondWhileARegistryCallHangsWhateverTheAllocationTimeout() {
		CountDownLatch hung = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		AtomicInteger calls = new AtomicInteger();
		this.registry.otherwise((delegate, timestamp, blockSize) -> {
			if (calls.incrementAndGet() == 2) {
				hung.countDown();
				awaitUninterruptibly(release); // deaf to the interrupt of close(): its
												// thread outlives close()
			}
			return delegate.allocate(timestamp, blockSize);
		});
		CridNode node = node().blockSize(100).threshold(50).allocationTimeout(Duration.ofMinutes(10)).build();
		CountDownLatch closed = new CountDownLatch(1);
		Thread closer = new Thread(() -> {
			node.close();
			closed.countDown();
		}, "closer");
		closer.setDaemon(true);
		try {
			for (int i = 0; i < 60; i++) {
				node.nextId(); // passes the trigger: the prefetch starts and hangs
			}
			assertThat(awaitQuietly(hung, AWAIT)).isTrue();
			closer.start();
			// close() waits a second at most for the node's threads, never the allocation
			// timeout (ten minutes here); four seconds more are the margin for a busy
			// machine.
			assertThat(awaitQuietly(closed, Duration.ofSeconds(5))).as("close() returned").isTrue();
			assertThat(node.isClosed()).isTrue();
		}
		finally {
			release.countDown();
		}
	}

	@Test
	void closeFromTheFailureHandlerOnTheNodesOwnThreadReturnsAtOnceAndLeavesItUninterrupted() {
		this.registry.otherwise(RecordingRegistry.Answer.fail(new RegistryException("down")));
		AtomicReference<CridNode> nodeRef = new AtomicReference<>();
		AtomicLong closeNanos = new AtomicLong(-1);
		AtomicReference<Boolean> interruptedAfterClose = new AtomicReference<>();
		CridNode node = node().blockSize(100)
			.threshold(50)
			.allocationTimeout(Duration.ofSeconds(30))
			.onPrefetchFailure((failure) -> {
				long started = System.nanoTime();
				nodeRef.get().close();
				if (closeNanos.compareAndSet(-1, System.nanoTime() - started)) {
					interruptedAfterClose.set(Thread.currentThread().isInterrupted());
				}
			})
			.build();
		nodeRef.set(node);
		this.registry.then(Registry::allocate);
		// Enough IDs to pass the threshold; the handler may close the node before the
		// loop ends.
		for (int i = 0; i < 61 && !node.isClosed(); i++) {
			try {
				node.nextId();
			}
			catch (NodeClosedException closedByTheHandler) {
				break;
			}
		}
		await().atMost(AWAIT).until(() -> closeNanos.get() >= 0);
		// Waiting for its own thread to end would last the whole wait of close(), a
		// second; 200 ms is the margin for a busy machine.
		assertThat(Duration.ofNanos(closeNanos.get())).isLessThan(Duration.ofMillis(200));
		// The interrupt of close() is for registry calls; the handler that closed the
		// node goes on uninterrupted.
		assertThat(interruptedAfterClose.get()).as("the handler's thread interrupted after close()").isFalse();
		assertThat(node.isClosed()).isTrue();
	}

	@Test
	void nodesDroppedWithoutCloseLeaveNoThreadOnceIdle() {
		Set<Thread> before = Thread.getAllStackTraces().keySet();
		for (int i = 0; i < 20; i++) {
			CridNode node = new CridNode(node().build().settings().with(Timing.SYSTEM, Duration.ofMillis(200), false));
			node.nextId(); // starts the node's thread; the node is then dropped, never
							// closed
		}
		assertThat(newNodeThreads(before)).isNotEmpty();
		await().atMost(AWAIT).until(() -> newNodeThreads(before).isEmpty());
	}

	@Test
	void outageWithNobodyCallingDoesNotGrowTheBlocksOnceTheRegistryReturns() {
		AtomicBoolean down = new AtomicBoolean();
		this.registry.otherwise((delegate, timestamp, blockSize) -> {
			if (down.get()) {
				throw new RegistryException("connection refused");
			}
			return delegate.allocate(timestamp, blockSize);
		});
		try (CridNode node = node().blockSize(1_000).threshold(500).allocationTimeout(Duration.ofSeconds(2)).build()) {
			// A block lasts half a second at 2,000 IDs a second: only an arrival of a
			// quarter of a second or more (the outage, counted as latency) makes the node
			// grow its blocks.
			consumeAt(node, 2_000, Duration.ofMillis(600));
			long before = node.stats().allocationSize();
			down.set(true);
			// Past the trigger, then nobody calls while the background retries through a
			// 3 s outage.
			while (node.stats().consecutiveFailures() == 0) {
				CridStats stats = node.stats();
				if (stats.nextBlockReady() || stats.idsLeftInBlock() >= 500) {
					node.nextId();
				}
				else {
					Thread.onSpinWait(); // the prefetch is in flight: let it fail,
											// without calling
				}
			}
			sleep(Duration.ofSeconds(3));
			down.set(false);
			await().atMost(AWAIT).until(() -> node.stats().nextBlockReady());
			consumeAt(node, 2_000, Duration.ofSeconds(3));
			// Counted as latency, the outage doubles the blocks at every block since:
			// four times or more by now.
			assertThat(node.stats().allocationSize()).as("blocks after the outage, against " + before + " before")
				.isLessThanOrEqualTo(2 * before);
		}
	}

	@Test
	void noCallThatBeginsAfterCloseIsServed() throws Exception {
		for (int round = 0; round < 200; round++) {
			CridNode node = node().blockSize(64).threshold(32).build();
			node.nextId();
			AtomicBoolean closed = new AtomicBoolean();
			AtomicInteger servedAfterClose = new AtomicInteger();
			CyclicBarrier start = new CyclicBarrier(5);
			List<Thread> threads = new ArrayList<>();
			for (int t = 0; t < 4; t++) {
				Thread thread = new Thread(() -> {
					awaitQuietly(start);
					while (true) {
						boolean begunAfterClose = closed.get();
						try {
							node.nextId();
						}
						catch (NodeClosedException ex) {
							return;
						}
						if (begunAfterClose) {
							servedAfterClose.incrementAndGet();
						}
					}
				});
				thread.start();
				threads.add(thread);
			}
			awaitQuietly(start);
			node.close();
			closed.set(true);
			for (Thread thread : threads) {
				thread.join(AWAIT.toMillis());
			}
			assertThat(servedAfterClose).as("calls served that began after close(), round " + round).hasValue(0);
		}
	}

	@Test
	void nextIdsOfZeroOnAClosedNodeThrows() {
		CridNode node = node().build();
		node.close();
		assertThatExceptionOfType(NodeClosedException.class).isThrownBy(() -> node.nextIds(0));
	}

	@Test
	void retriesOnAUsersExecutorCallTheRegistryNoMoreAfterClose() throws Exception {
		java.util.concurrent.ExecutorService executor = java.util.concurrent.Executors.newSingleThreadExecutor();
		try {
			this.registry.otherwise(RecordingRegistry.Answer.fail(new RegistryException("down")));
			CridNode node = node().threshold(0)
				.allocationTimeout(Duration.ofMillis(100))
				.prefetchExecutor(executor)
				.build();
			assertThatExceptionOfType(RegistryException.class).isThrownBy(node::nextId);
			// The reservation goes on asking in the background, with pauses from 10 ms
			// on.
			await().atMost(AWAIT).until(() -> this.registry.callCount() >= 3);
			node.close();
			long closed = System.nanoTime();
			sleep(Duration.ofMillis(300));
			assertThat(this.registry.calls()).as("registry calls begun after close()")
				.noneMatch((call) -> call.calledAt() - closed > 0);
		}
		finally {
			executor.shutdownNow();
		}
	}

	@Test
	void failureHandlerRunsOnTheNodesThreadOrOnTheCallersWhenTheExecutorRefusedTheTask() {
		Set<String> handlerThreads = java.util.concurrent.ConcurrentHashMap.newKeySet();
		this.registry.then(Registry::allocate).otherwise(RecordingRegistry.Answer.fail(new RegistryException("down")));
		try (CridNode node = node().blockSize(100)
			.threshold(50)
			.allocationTimeout(Duration.ofMillis(300))
			.onPrefetchFailure((failure) -> handlerThreads.add(Thread.currentThread().getName()))
			.build()) {
			for (int i = 0; i < 60; i++) {
				node.nextId();
			}
			await().atMost(AWAIT).until(() -> !handlerThreads.isEmpty());
			assertThat(handlerThreads).allMatch((name) -> name.startsWith("crid-prefetch-"));
		}
		handlerThreads.clear();
		Executor refusing = (task) -> {
			throw new java.util.concurrent.RejectedExecutionException("shut down");
		};
		try (CridNode node = node().blockSize(100)
			.threshold(50)
			.prefetchExecutor(refusing)
			.onPrefetchFailure((failure) -> handlerThreads.add(Thread.currentThread().getName()))
			.build()) {
			this.registry.heal();
			this.registry.then(Registry::allocate);
			assertThatExceptionOfType(RegistryException.class).isThrownBy(node::nextId)
				.withMessageContaining("refused");
			assertThat(handlerThreads).isEmpty(); // a caller's reservation, not a
													// background one
		}
	}

	@Test
	void executorThatNeverStartsTheTaskDoesNotStallACallerOfAnInMemoryRegistry() {
		ConcurrentLinkedQueue<Runnable> neverRun = new ConcurrentLinkedQueue<>();
		try (CridNode node = CridNode.builder(new InMemoryRegistry())
			.clock(this.clock)
			.blockSize(100)
			.threshold(50)
			.prefetchExecutor(neverRun::add)
			.build()) {
			long started = System.nanoTime();
			Set<Long> ids = new HashSet<>();
			for (int i = 0; i < 1_000; i++) {
				ids.add(node.nextId());
			}
			assertThat(ids).hasSize(1_000);
			assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(1));
			assertThat(neverRun).as("reservations the executor was given and never ran").isNotEmpty();
		}
	}

	private CridNode.Builder node() {
		return CridNode.builder(this.registry).clock(this.clock);
	}

	private static void consumeAt(CridNode node, long perSecond, Duration duration) {
		long started = System.nanoTime();
		long end = started + duration.toNanos();
		long issued = 0;
		while (System.nanoTime() < end) {
			long due = (System.nanoTime() - started) * perSecond / 1_000_000_000L;
			while (issued < due) {
				node.nextId();
				issued++;
			}
			java.util.concurrent.locks.LockSupport.parkNanos(100_000);
		}
	}

	private static Set<Thread> newNodeThreads(Set<Thread> before) {
		Set<Thread> threads = new HashSet<>();
		for (Map.Entry<Thread, StackTraceElement[]> entry : Thread.getAllStackTraces().entrySet()) {
			Thread thread = entry.getKey();
			if (!before.contains(thread) && thread.isAlive() && thread.getName().startsWith("crid-prefetch-")) {
				threads.add(thread);
			}
		}
		return threads;
	}

	@SuppressWarnings("unchecked")
	private static <T extends Throwable> T sneaky(Throwable thrown) throws T {
		throw (T) thrown;
	}

	private static void sleep(Duration duration) {
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static boolean awaitQuietly(CountDownLatch latch, Duration atMost) {
		try {
			return latch.await(atMost.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	private static void awaitQuietly(CyclicBarrier barrier) {
		try {
			barrier.await();
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static void awaitUninterruptibly(CountDownLatch latch) {
		boolean interrupted = false;
		while (true) {
			try {
				latch.await();
				break;
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
