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
		assertThat(NodeThreads.startedSince(before)).hasSize(20);
		timing.advance(RetryPolicy.BACKGROUND_RETRY_LIMIT);
		await().atMost(AWAIT).until(() -> NodeThreads.startedSince(before).isEmpty());
		int after = registry.callCount();
		assertThat(registry.calls()).as("calls of nodes without a thread").hasSize(after);
	}

	private static void awaitQuietly(CyclicBarrier barrier) {
		try {
			barrier.await();
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

}
