package dev.crid;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Tests what {@code close()} promises, on the node's own threads and on an executor of
 * the user's: it returns only once the node is closed, however many close it at once; no
 * call that begins after it returned is served; no registry call begins after it
 * returned, from any thread; and a node dropped without it stops calling its registry and
 * leaves no thread.
 */
class CridNodeCloseTest {

	private static final Duration AWAIT = Duration.ofSeconds(30);

	private final MutableClock clock = new MutableClock(CridLayout.DEFAULT_EPOCH.plusSeconds(500));

	private final RecordingRegistry registry = new RecordingRegistry(new InMemoryRegistry());

	@Test
	void closesRacingEachOtherReturnOnlyOnceTheNodeIsClosedAndItsThreadsHaveEnded() throws Exception {
		int rounds = 5_000;
		AtomicInteger served = new AtomicInteger();
		AtomicInteger threadsAlive = new AtomicInteger();
		ExecutorService closers = Executors.newFixedThreadPool(2);
		try {
			for (int round = 0; round < rounds; round++) {
				RecordingRegistry registry = new RecordingRegistry(new InMemoryRegistry());
				CridNode node = CridNode.builder(registry).clock(this.clock).blockSize(1_000).threshold(500).build();
				node.warmUp();
				CyclicBarrier both = new CyclicBarrier(2);
				Runnable closer = () -> {
					node.nextId(); // sets a slice aside for this thread's stripe
					awaitQuietly(both);
					node.close();
					try {
						node.nextId();
						served.incrementAndGet();
					}
					catch (NodeClosedException expected) {
						// as it must be
					}
				};
				var first = closers.submit(closer);
				var second = closers.submit(closer);
				first.get();
				second.get();
				for (RecordingRegistry.Call call : registry.calls()) {
					call.thread().join(100); // its last steps after the executor ended
					if (call.thread().isAlive()) {
						threadsAlive.incrementAndGet();
					}
				}
			}
		}
		finally {
			closers.shutdownNow();
		}
		assertThat(served).as("calls served after their own close() returned, in " + rounds + " rounds").hasValue(0);
		assertThat(threadsAlive).as("node threads alive after both close() returned").hasValue(0);
	}

	@Test
	void noRegistryCallBeginsAfterCloseOnAUsersExecutorWaitingForAUsedUpSecondToPass() throws Exception {
		RecordingRegistry registry = new RecordingRegistry(new InMemoryRegistry())
			.then(RecordingRegistry.Answer.start(Long.MAX_VALUE));
		ExecutorService executor = Executors.newCachedThreadPool();
		try {
			CridNode node = CridNode.builder(registry)
				.clock(this.clock)
				.prefetchExecutor(executor)
				.allocationTimeout(Duration.ofSeconds(5))
				.build();
			Thread caller = new Thread(
					() -> assertThatExceptionOfType(NodeClosedException.class).isThrownBy(node::nextId));
			caller.start();
			await().atMost(AWAIT).until(() -> registry.callCount() == 1);
			node.close();
			long closed = System.nanoTime();
			this.clock.advance(Duration.ofSeconds(1)); // the second the reservation waits
														// for comes
			caller.join(AWAIT.toMillis());
			executor.shutdown(); // lets the reservation waiting for the second end
			assertThat(executor.awaitTermination(AWAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
			assertThat(registry.calls()).filteredOn((call) -> call.calledAt() - closed > 0)
				.as("registry calls begun after close() returned")
				.isEmpty();
			assertThat(registry.calls()).hasSize(1);
		}
		finally {
			executor.shutdownNow();
		}
	}

	@Test
	void noRegistryCallBeginsAfterCloseWhenALayoutCheckIgnoresItsInterrupt() throws Exception {
		CountDownLatch checking = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		AtomicLong reservedAfter = new AtomicLong(Long.MAX_VALUE);
		Registry registry = new Registry() {

			@Override
			public long allocate(long timestamp, long blockSize) {
				reservedAfter.compareAndSet(Long.MAX_VALUE, System.nanoTime());
				return 0;
			}

			@Override
			public void checkLayout(CridLayout layout) {
				checking.countDown();
				Hung.awaitUninterruptibly(release);
			}

		};
		CridNode node = CridNode.builder(registry).clock(this.clock).allocationTimeout(Duration.ofSeconds(5)).build();
		Thread warmUp = new Thread(() -> assertThatExceptionOfType(NodeClosedException.class).isThrownBy(node::warmUp));
		warmUp.start();
		assertThat(checking.await(AWAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
		node.close(); // waits a second for the check, which is deaf to the interrupt
		long closed = System.nanoTime();
		release.countDown(); // the check returns after close() did
		warmUp.join(AWAIT.toMillis());
		Thread.sleep(300);
		assertThat(reservedAfter.get()).as("a reservation after close() returned").isEqualTo(Long.MAX_VALUE);
		assertThat(closed).isPositive();
	}

	@Test
	void aReservationGivenUpOnCallsTheRegistryNoMoreWhenItsHungCallReturns() throws Exception {
		CountDownLatch release = new CountDownLatch(1);
		AtomicReference<Thread> checkingThread = new AtomicReference<>();
		List<Thread> reservingThreads = new ArrayList<>();
		Registry registry = new Registry() {

			private final InMemoryRegistry delegate = new InMemoryRegistry();

			@Override
			public long allocate(long timestamp, long blockSize) {
				synchronized (reservingThreads) {
					reservingThreads.add(Thread.currentThread());
				}
				return this.delegate.allocate(timestamp, blockSize);
			}

			@Override
			public void checkLayout(CridLayout layout) {
				if (checkingThread.compareAndSet(null, Thread.currentThread())) {
					Hung.awaitUninterruptibly(release); // the first check hangs
				}
			}

		};
		try (CridNode node = CridNode.builder(registry)
			.clock(this.clock)
			.allocationTimeout(Duration.ofMillis(200))
			.build()) {
			await().atMost(AWAIT).ignoreExceptions().until(() -> node.nextId() >= 0);
			assertThat(node.stats().stuckCalls()).isOne();
			release.countDown();
			await().atMost(AWAIT).until(() -> node.stats().stuckCalls() == 0);
			synchronized (reservingThreads) {
				assertThat(reservingThreads).as("threads that reserved").doesNotContain(checkingThread.get());
			}
		}
	}

	@Test
	void noRegistryCallBeginsAfterTheFailureHandlerClosesTheNodeOnItsOwnThread() throws Exception {
		Hung hung = new Hung();
		RecordingRegistry registry = new RecordingRegistry(new InMemoryRegistry()).then(Registry::allocate)
			.then(hung)
			.then(Registry::allocate)
			.otherwise(RecordingRegistry.Answer.fail(new RegistryException("down")));
		AtomicReference<CridNode> nodeRef = new AtomicReference<>();
		AtomicLong closed = new AtomicLong();
		CridNode node = CridNode.builder(registry)
			.clock(this.clock)
			.blockSize(100)
			.threshold(50)
			.allocationTimeout(Duration.ofMillis(200))
			.onPrefetchFailure((failure) -> {
				if (closed.get() == 0) {
					nodeRef.get().close();
					closed.compareAndSet(0, System.nanoTime());
				}
			})
			.build();
		nodeRef.set(node);
		// The first prefetch hangs and is given up on; a caller's fresh call gets the
		// next
		// block, whose prefetch fails in the background: its handler closes the node,
		// while the hung call's thread is still out.
		await().atMost(AWAIT).until(() -> {
			try {
				for (int i = 0; i < 100; i++) {
					node.nextId();
				}
			}
			catch (CridException ex) {
				// failed callers, until the handler closed the node
			}
			return closed.get() != 0;
		});
		hung.release(); // the hung call returns; its reservation was given up on
		await().atMost(AWAIT).until(() -> node.stats().stuckCalls() == 0);
		assertThat(registry.calls()).filteredOn((call) -> call.calledAt() - closed.get() > 0)
			.as("registry calls begun after close() returned")
			.isEmpty();
	}

	@Test
	void nodesDroppedWithoutCloseInALastingOutageStopCallingTheRegistryAndLeaveNoThread() {
		RecordingRegistry registry = new RecordingRegistry(new InMemoryRegistry())
			.otherwise(RecordingRegistry.Answer.fail(new RegistryException("Connection refused")));
		SteppedTiming timing = new SteppedTiming();
		Set<Thread> before = NodeThreads.now();
		for (int i = 0; i < 20; i++) {
			CridNode node = new CridNode(CridNode.builder(registry)
				.clock(this.clock)
				.allocationTimeout(Duration.ofMillis(100))
				.build()
				.settings()
				.with(timing, Duration.ofMillis(200), false));
			assertThatExceptionOfType(RegistryException.class).isThrownBy(node::nextId);
			// dropped, never closed: its reservation keeps trying in the background
		}
		int calls = registry.callCount();
		await().atMost(AWAIT).until(() -> registry.callCount() > calls + 20);
		// A node whose first task a loaded machine did not start within the caller's
		// 100 ms gave it up and has no thread to stop; the others retry in the
		// background.
		assertThat(NodeThreads.startedSince(before)).isNotEmpty();
		timing.advance(RetryPolicy.BACKGROUND_RETRY_LIMIT);
		await().atMost(AWAIT).until(() -> NodeThreads.startedSince(before).isEmpty());
		int after = registry.callCount();
		assertThat(registry.calls()).as("calls of nodes without a thread").hasSize(after);
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
		// second.
		assertThat(Duration.ofNanos(closeNanos.get())).isLessThan(Duration.ofNanos(NodeExecutor.CLOSE_WAIT_NANOS));
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
		assertThat(NodeThreads.startedSince(before)).isNotEmpty();
		await().atMost(AWAIT).until(() -> NodeThreads.startedSince(before).isEmpty());
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
	void closeDuringAPrefetchLogsNoWarning() throws InterruptedException {
		Gate gate = new Gate();
		try (LogRecorder log = new LogRecorder()) {
			CridNode node = node().blockSize(10).threshold(10).build();
			node.nextId();
			await().atMost(AWAIT).until(() -> node.stats().nextBlockReady());
			this.registry.then(gate);
			for (int i = 0; i < 10; i++) {
				node.nextId();
			}
			await().atMost(AWAIT).until(() -> gate.entered() == 1);
			node.close();
			await().atMost(AWAIT).until(() -> gate.interrupted() == 1);
			// the thread that could log a warning has ended
			Thread prefetching = this.registry.calls().get(this.registry.callCount() - 1).thread();
			prefetching.join(AWAIT.toMillis());
			assertThat(prefetching.isAlive()).isFalse();
			assertThat(log.warnings()).isEmpty();
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

	private CridNode.Builder node() {
		return CridNode.builder(this.registry).clock(this.clock);
	}

	private static void sleep(Duration duration) {
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
