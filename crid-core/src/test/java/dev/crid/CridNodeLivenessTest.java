package dev.crid;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Tests that no executor or registry misbehaviour can leave a {@link CridNode} waiting
 * forever, and what the node does with executors it cannot protect callers from.
 */
class CridNodeLivenessTest {

	private static final Duration AWAIT = Duration.ofSeconds(10);

	private static final Duration TIMEOUT = Duration.ofMillis(200);

	private final MutableClock clock = new MutableClock(CridLayout.DEFAULT_EPOCH.plusSeconds(500));

	private final RecordingRegistry registry = new RecordingRegistry(new InMemoryRegistry());

	@Test
	void executorThatThrowsAnErrorOnSubmitDoesNotWedgeTheNode() {
		AtomicInteger submissions = new AtomicInteger();
		Executor executor = (task) -> {
			if (submissions.incrementAndGet() == 1) {
				throw new OutOfMemoryError("unable to create native thread");
			}
			new Thread(task).start();
		};
		try (CridNode node = node().prefetchExecutor(executor).allocationTimeout(Duration.ofSeconds(2)).build()) {
			assertThat(node.nextId()).isNotNegative();
			assertThat(submissions).hasValue(2);
			assertThat(node.stats().synchronousAllocations().failures()).isOne();
			assertThat(node.stats().lastFailure()).contains("unable to create native thread");
		}
	}

	@Test
	void executorThatDropsTasksSilentlyDelaysCallersButDoesNotWedgeTheNode() {
		AtomicBoolean dropping = new AtomicBoolean(true);
		Executor executor = (task) -> {
			if (!dropping.get()) {
				new Thread(task).start();
			}
		};
		try (CridNode node = node().prefetchExecutor(executor).allocationTimeout(TIMEOUT).build()) {
			// The caller waits for the dropped task until it has waited the allocation
			// timeout unclaimed, and gives up on it.
			int failed = 0;
			while (node.stats().lastFailure() == null) {
				assertThatExceptionOfType(RegistryException.class).isThrownBy(node::nextId)
					.withMessageContaining("did not run the task");
				assertThat(++failed).isLessThan(20);
			}
			assertThat(failed).isOne();
			assertThat(node.stats().lastFailure()).contains("Gave up", "did not run the task");
			dropping.set(false);
			assertThat(node.nextId()).isNotNegative();
			assertThat(this.registry.callCount()).isOne();
		}
	}

	@Test
	void shutDownPoolThatDiscardsTasksFailsCallersWithinTheirTimeout() {
		ThreadPoolExecutor pool = new ThreadPoolExecutor(1, 1, 1, TimeUnit.SECONDS, new SynchronousQueue<>(),
				new ThreadPoolExecutor.DiscardPolicy());
		pool.shutdownNow();
		try (CridNode node = node().prefetchExecutor(pool).allocationTimeout(TIMEOUT).build()) {
			for (int call = 0; call < 3; call++) {
				long started = System.nanoTime();
				assertThatExceptionOfType(RegistryException.class).isThrownBy(node::nextId);
				assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(TIMEOUT)
					.isLessThan(TIMEOUT.plusMillis(1_500));
			}
			assertThat(this.registry.callCount()).isZero();
		}
	}

	@Test
	void directExecutorBlocksCallersForTheWholeRegistryCallAndIsReported() {
		this.registry.then((delegate, timestamp, blockSize) -> {
			sleep(Duration.ofMillis(1_000));
			return delegate.allocate(timestamp, blockSize);
		});
		try (LogRecorder log = new LogRecorder();
				CridNode node = node().prefetchExecutor(Runnable::run).allocationTimeout(TIMEOUT).build()) {
			long started = System.nanoTime();
			assertThat(node.nextId()).isNotNegative();
			assertThat(Duration.ofNanos(System.nanoTime() - started)).as("far beyond the allocation timeout")
				.isGreaterThanOrEqualTo(Duration.ofMillis(1_000));
			assertThat(log.warnings()).singleElement().asString().contains("runs tasks on the calling thread");
			node.nextId();
			assertThat(log.warnings()).as("reported once").hasSize(1);
		}
	}

	@Test
	void directExecutorDoesNotRetryOnTheCallersThread() {
		this.registry.otherwise(RecordingRegistry.Answer.fail(new IllegalStateException("Connection refused")));
		try (CridNode node = node().prefetchExecutor(Runnable::run).threshold(0).allocationTimeout(TIMEOUT).build()) {
			assertThatExceptionOfType(RegistryException.class).isThrownBy(node::nextId)
				.withMessageContaining("Connection refused");
			// The caller itself asks again with backoff until its timeout; each ask is
			// one registry call.
			assertThat(this.registry.callCount()).isBetween(2, 10);
		}
	}

	@Test
	void onPrefetchFailureIsToldOfEveryFailedBackgroundReservation() {
		List<RuntimeException> told = new CopyOnWriteArrayList<>();
		List<Thread> threads = new CopyOnWriteArrayList<>();
		IllegalStateException down = new IllegalStateException("database is down");
		try (CridNode node = node().blockSize(10).threshold(5).onPrefetchFailure((failure) -> {
			told.add(failure);
			threads.add(Thread.currentThread());
			throw new IllegalArgumentException("a handler that throws changes nothing");
		}).build()) {
			node.nextId();
			this.registry.then(RecordingRegistry.Answer.fail(down)).then(RecordingRegistry.Answer.fail(down));
			for (int i = 0; i < 5; i++) {
				node.nextId();
			}
			await().atMost(AWAIT).until(() -> node.stats().nextBlockReady());
			assertThat(told).hasSize(2).allSatisfy((failure) -> assertThat(failure).hasRootCause(down));
			assertThat(threads).allSatisfy((thread) -> assertThat(thread.getName()).startsWith("crid-prefetch-"));
			assertThat(node.stats().prefetchAllocations().failures()).isEqualTo(2);
			assertThat(node.stats().prefetchAllocations().successes()).isOne();
		}
	}

	@Test
	void warmUpReservesTheFirstBlockSoNoCallerWaits() {
		try (CridNode node = node().build()) {
			node.warmUp();
			assertThat(this.registry.callCount()).isOne();
			assertThat(node.stats().nextBlockReady()).isTrue();
			node.warmUp();
			assertThat(this.registry.callCount()).as("nothing more while a block is at hand").isOne();
			assertThat(node.nextId()).isNotNegative();
			assertThat(node.stats().stalls()).isZero();
		}
	}

	@Test
	void warmUpFailsWithTheRegistrysFailureWithinTheTimeout() {
		this.registry.otherwise(RecordingRegistry.Answer.fail(new IllegalStateException("Connection refused")));
		// A second, not TIMEOUT: the registry's failure reaches the caller only once the
		// node's thread has run the task, which a loaded machine may not start within
		// 200 ms (the caller then reports that instead).
		Duration timeout = Duration.ofSeconds(1);
		try (CridNode node = node().allocationTimeout(timeout).build()) {
			long started = System.nanoTime();
			assertThatExceptionOfType(RegistryException.class).isThrownBy(node::warmUp)
				.withMessageContaining("Connection refused");
			assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(timeout)
				.isLessThan(timeout.plusSeconds(2));
		}
	}

	@Test
	void callerRunsAReservationItFindsQueuedAndNotStartedWhenTheRegistryAnswersFromMemory() {
		// An executor that never gets round to its tasks, as a busy one does (carriers of
		// virtual threads that keep every core, a saturated pool): each caller runs the
		// reservation it waits for itself.
		List<Runnable> held = new CopyOnWriteArrayList<>();
		InMemoryRegistry memory = new InMemoryRegistry();
		try (CridNode node = CridNode.builder(memory)
			.clock(this.clock)
			.blockSize(10)
			.threshold(5)
			.prefetchExecutor(held::add)
			.allocationTimeout(Duration.ofSeconds(2))
			.build()) {
			Set<Long> ids = new HashSet<>();
			for (int i = 0; i < 100; i++) {
				assertThat(ids.add(node.nextId())).isTrue();
			}
			assertThat(held).hasSizeGreaterThanOrEqualTo(4);
			// A task the executor runs late finds its reservation done by a caller, and
			// reserves nothing more (all but the last, which may be a prefetch that no
			// caller has needed yet).
			long next = memory.allocate(500, 1);
			held.subList(0, held.size() - 1).forEach(Runnable::run);
			assertThat(memory.allocate(500, 1)).isEqualTo(next + 1);
			assertThat(node.stats().synchronousAllocations().failures()).isZero();
		}
	}

	@Test
	void registryThatIsNotInMemoryIsNeverCalledOnACallersThreadEvenWhenItsTaskWaitsInAQueue() {
		// A caller's thread may hold a transaction that a registry on a database would
		// join: the node never calls such a registry there, however late the executor
		// runs the reservation.
		Executor late = (task) -> new Thread(() -> {
			sleep(Duration.ofMillis(20));
			task.run();
		}).start();
		try (CridNode node = node().blockSize(10)
			.threshold(5)
			.prefetchExecutor(late)
			.allocationTimeout(Duration.ofSeconds(5))
			.build()) {
			for (int i = 0; i < 100; i++) {
				node.nextId();
			}
		}
		assertThat(this.registry.calls()).hasSizeGreaterThanOrEqualTo(4)
			.noneMatch((call) -> call.thread() == Thread.currentThread());
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
