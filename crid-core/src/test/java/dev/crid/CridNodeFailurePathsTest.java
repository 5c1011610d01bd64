package dev.crid;

import java.io.IOException;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

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
			// Retried within the caller's wait: the first call fails, the retry after it
			// reaches the delegate.
			long id = node.nextId();
			assertThat(id).isNotNegative();
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
			// The handler's Error is logged, and the background reservation goes on
			// asking: once the registry heals it gets its block, and callers get IDs
			// without one failing.
			long failedCallers = node.stats().synchronousAllocations().failures();
			for (int i = 0; i < 200; i++) {
				assertThat(node.nextId()).isNotNegative();
			}
			assertThat(node.stats().synchronousAllocations().failures()).isEqualTo(failedCallers);
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
		// An executor that runs the first reservation and refuses the rest: the prefetch
		// it refuses fails at once, on the thread that asked for it, the caller's.
		AtomicInteger tasks = new AtomicInteger();
		Executor refusingAfterTheFirst = (task) -> {
			if (tasks.incrementAndGet() > 1) {
				throw new java.util.concurrent.RejectedExecutionException("shut down");
			}
			new Thread(task, "first-task").start();
		};
		this.registry.heal();
		try (CridNode node = node().blockSize(100)
			.threshold(50)
			.prefetchExecutor(refusingAfterTheFirst)
			.onPrefetchFailure((failure) -> handlerThreads.add(Thread.currentThread().getName()))
			.build()) {
			for (int i = 0; i < 60; i++) {
				node.nextId(); // the first block, then past its trigger
			}
			assertThat(tasks).hasValue(2);
			assertThat(handlerThreads).containsExactly(Thread.currentThread().getName());
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
