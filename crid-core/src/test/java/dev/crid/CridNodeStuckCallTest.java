package dev.crid;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Tests that registry calls that never return cannot wedge a node: each is given up on
 * once it has not returned within the allocation timeout and a grace, the node carries on
 * with a fresh call on a thread of its own, and the calls it is stuck on show in its
 * statistics.
 */
class CridNodeStuckCallTest {

	private static final Duration AWAIT = Duration.ofSeconds(30);

	private static final Duration TIMEOUT = Duration.ofMillis(200);

	private final MutableClock clock = new MutableClock(CridLayout.DEFAULT_EPOCH.plusSeconds(500));

	private final RecordingRegistry registry = new RecordingRegistry(new InMemoryRegistry());

	@Test
	void noNumberOfCallsThatNeverReturnWedgesTheNode() {
		Hung hung = new Hung();
		int hungCalls = 3;
		for (int i = 0; i < hungCalls; i++) {
			this.registry.then(hung);
		}
		Set<Thread> before = NodeThreads.now();
		CridNode node = CridNode.builder(this.registry).clock(this.clock).allocationTimeout(TIMEOUT).build();
		try {
			int failedCallers = 0;
			long id = -1;
			long giveUpAt = System.nanoTime() + AWAIT.toNanos();
			while (id < 0 && System.nanoTime() - giveUpAt < 0) {
				try {
					id = node.nextId();
				}
				catch (RegistryException ex) {
					failedCallers++;
				}
			}
			assertThat(id).as("an ID once the registry answered again").isNotNegative();
			assertThat(hung.entered()).isEqualTo(hungCalls);
			// Each call that never returns costs callers its timeout and grace, two
			// timeouts here: two failed callers each, and one whose wait straddles.
			assertThat(failedCallers).isBetween(hungCalls, 2 * hungCalls + 2);
			assertThat(node.stats().stuckCalls()).as("calls given up on, still out").isEqualTo(hungCalls);
			assertThat(NodeThreads.startedSince(before)).as("threads of the node: one per hung call, and two more")
				.hasSizeBetween(hungCalls + 1, hungCalls + NodeExecutor.OWN_THREADS);
			for (int i = 0; i < 1_000; i++) {
				node.nextId();
			}
			hung.release();
			await().atMost(AWAIT).until(() -> node.stats().stuckCalls() == 0);
		}
		finally {
			hung.release();
			node.close();
		}
	}

	@Test
	void closeReturnsWithinASecondWhileARegistryCallHangsWhateverTheAllocationTimeout() throws Exception {
		Hung hung = new Hung();
		this.registry.then(Registry::allocate).then(hung);
		CridNode node = CridNode.builder(this.registry)
			.clock(this.clock)
			.blockSize(100)
			.threshold(50)
			.allocationTimeout(Duration.ofMinutes(10))
			.build();
		try {
			for (int i = 0; i < 60; i++) {
				node.nextId(); // passes the trigger: the prefetch starts and hangs
			}
			await().atMost(AWAIT).until(() -> hung.entered() == 1);
			long closing = System.nanoTime();
			node.close();
			// close() waits a second at most for the calls under way and the node's
			// threads, never the allocation timeout (ten minutes here); it waits that
			// second in full, since the call is deaf to its interrupt. Beyond it, only
			// what a loaded machine held the threads up.
			long took = System.nanoTime() - closing;
			assertThat(Duration.ofNanos(took)).isGreaterThanOrEqualTo(Duration.ofMillis(990));
			assertThat(Duration.ofNanos(took - SchedulingLag.recentMax(took))).as("close() beyond the scheduling lag")
				.isLessThan(Duration.ofMillis(1_250));
			assertThat(node.isClosed()).isTrue();
		}
		finally {
			hung.release();
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
			// Less than its whole budget, beyond what a loaded machine held the thread up
			long took = System.nanoTime() - started;
			assertThat(Duration.ofNanos(took - SchedulingLag.recentMax(took)))
				.as("the caller that found the call stuck")
				.isLessThan(timeout);
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
				Hung.awaitUninterruptibly(release); // a read on a dead socket: giving up
													// on it
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
	void registryCallThatNeverReturnsIsAbandonedAndItsLateBlockIsNeverServed() throws Exception {
		CountDownLatch release = new CountDownLatch(1);
		AtomicInteger interrupts = new AtomicInteger();
		// Like a read on a dead socket: interrupts do not end it.
		this.registry.then((delegate, timestamp, blockSize) -> {
			awaitUninterruptibly(release, interrupts);
			return delegate.allocate(timestamp, blockSize);
		});
		try (LogRecorder log = new LogRecorder();
				CridNode node = node().blockSize(10).threshold(0).allocationTimeout(TIMEOUT).build()) {
			assertThatExceptionOfType(RegistryException.class).isThrownBy(node::nextId)
				.withMessageContaining("the registry call did not return");
			// Callers time out until one finds the call stuck past the timeout and a
			// grace, and gives up on it; the next starts a fresh call, on another thread.
			int failed = 1;
			long fresh;
			while (true) {
				try {
					fresh = node.nextId();
					break;
				}
				catch (RegistryException ex) {
					assertThat(++failed).as("callers failed before the stuck call was given up on").isLessThan(20);
				}
			}
			// The first caller fails at its deadline; the next finds the call stuck (past
			// the timeout and a grace as long) within its own budget, gives up on it and
			// starts afresh with what is left of its budget.
			assertThat(failed).isLessThanOrEqualTo(2);
			assertThat(node.layout().sequenceOf(fresh)).as("a fresh call's block").isZero();
			await("the stuck call is interrupted when it is given up on").atMost(AWAIT)
				.until(() -> interrupts.get() == 1);
			// What failed last may be a later reservation, on a loaded machine (one that
			// its executor's new thread did not start in time): the log keeps them all.
			assertThat(log.warnings()).as("warnings")
				.anySatisfy((warning) -> assertThat(warning).contains("Gave up", "the registry call did not return"));
			assertThat(node.stats().stuckCalls()).as("calls the node gave up on, still out").isOne();
			release.countDown();
			await().atMost(AWAIT).until(() -> this.registry.callCount() == 2);
			// The late call's thread has dropped its block once it is back waiting for
			// work.
			Thread lateThread = this.registry.calls().get(1).thread();
			await("the late block handled").atMost(AWAIT)
				.until(() -> lateThread.getState() == Thread.State.WAITING
						|| lateThread.getState() == Thread.State.TIMED_WAITING
						|| lateThread.getState() == Thread.State.TERMINATED);
			Set<Long> sequences = new HashSet<>();
			for (int i = 0; i < 30; i++) {
				sequences.add(node.layout().sequenceOf(node.nextId()));
			}
			long late = this.registry.calls().get(1).start();
			assertThat(late).as("the late call's block").isEqualTo(10);
			assertThat(sequences).as("nothing of the late block is served")
				.noneMatch((seq) -> seq >= 10 && seq < 20)
				.hasSize(30);
		}
	}

	private CridNode.Builder node() {
		return CridNode.builder(this.registry).clock(this.clock);
	}

	private static void awaitUninterruptibly(CountDownLatch latch, AtomicInteger interrupts) {
		while (true) {
			try {
				if (!latch.await(30, TimeUnit.SECONDS)) {
					throw new IllegalStateException("The test never released the call");
				}
				return;
			}
			catch (InterruptedException ex) {
				interrupts.incrementAndGet();
			}
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

	private static void sleep(Duration duration) {
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
