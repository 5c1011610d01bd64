package dev.crid;

import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link CridNode} with a registry that behaves: how IDs are made, when blocks
 * are reserved, what {@code stats()} counts, and {@code close()}.
 */
class CridNodeTest {

	private static final Duration AWAIT = Duration.ofSeconds(10);

	private static final Instant EPOCH = CridLayout.DEFAULT_EPOCH;

	private final MutableClock clock = new MutableClock(EPOCH.plusSeconds(1_000).plusMillis(250));

	private final RecordingRegistry registry = new RecordingRegistry(new InMemoryRegistry());

	@Test
	void idsAreTheEpochRelativeSecondAndConsecutiveSequenceNumbers() {
		try (CridNode node = CridNode.builder(this.registry).clock(this.clock).blockSize(5).threshold(0).build()) {
			long[] ids = new long[12];
			for (int i = 0; i < ids.length; i++) {
				ids[i] = node.nextId();
			}
			CridLayout layout = node.layout();
			for (int i = 0; i < ids.length; i++) {
				assertThat(layout.timestampOf(ids[i])).isEqualTo(1_000);
				assertThat(layout.sequenceOf(ids[i])).isEqualTo(i);
			}
			assertThat(this.registry.calls()).extracting(RecordingRegistry.Call::timestamp).containsOnly(1_000L);
			assertThat(this.registry.calls()).extracting(RecordingRegistry.Call::blockSize).containsOnly(5L);
			assertThat(this.registry.calls()).extracting(RecordingRegistry.Call::start).containsExactly(0L, 5L, 10L);
			assertThat(node.parser().parse(ids[11])).isEqualTo(new ParsedId(EPOCH.plusSeconds(1_000), 11));
		}
	}

	@Test
	void registryIsAskedForSecondsSinceTheNodesOwnEpoch() {
		Instant epoch = Instant.parse("2025-07-01T00:00:00Z");
		this.clock.set(epoch.plusSeconds(86_400).plusMillis(999));
		try (CridNode node = CridNode.builder(this.registry).epoch(epoch).clock(this.clock).build()) {
			long id = node.nextId();
			assertThat(this.registry.calls()).singleElement()
				.extracting(RecordingRegistry.Call::timestamp)
				.isEqualTo(86_400L);
			assertThat(node.parser().parse(id).timestamp()).isEqualTo(epoch.plusSeconds(86_400));
		}
	}

	@Test
	void nextReturnsTheIdAsAValue() {
		try (CridNode node = CridNode.builder(this.registry).clock(this.clock).build()) {
			CridId first = node.next();
			long second = node.nextId();
			assertThat(second).isEqualTo(first.value() + 1);
		}
	}

	@Test
	void blockIsServedFromMemoryAndTheNextOneReservedWhenFewerThanThresholdAreLeft() {
		try (CridNode node = CridNode.builder(this.registry)
			.clock(this.clock)
			.blockSize(10)
			.threshold(4)
			.prefetchExecutor(Runnable::run)
			.build()) {
			node.nextId();
			assertThat(this.registry.callCount()).isOne();
			for (int i = 1; i < 6; i++) {
				node.nextId();
			}
			assertThat(node.stats().idsLeftInBlock()).isEqualTo(4);
			assertThat(this.registry.callCount()).as("4 left is not fewer than the threshold 4").isOne();
			node.nextId();
			assertThat(node.stats().idsLeftInBlock()).isEqualTo(3);
			assertThat(this.registry.callCount()).isEqualTo(2);
			assertThat(node.stats().nextBlockReady()).isTrue();
			for (int i = 7; i < 10; i++) {
				node.nextId();
			}
			assertThat(this.registry.callCount()).as("at most one block is reserved ahead").isEqualTo(2);
			long firstOfNext = node.nextId();
			assertThat(node.layout().sequenceOf(firstOfNext)).isEqualTo(10);
			assertThat(node.stats().stalls()).as("only the first call waited").isOne();
			assertThat(node.stats().synchronousAllocations().successes()).isOne();
			// The second block may ask for its successor at once: the node measured
			// blocks of 10 going faster than the registry answers, and reserves earlier
			// for it.
			assertThat(node.stats().prefetchAllocations().successes()).isBetween(1L, 2L);
		}
	}

	@Test
	void thresholdEqualToTheBlockSizeReservesAheadOnTheFirstId() {
		try (CridNode node = CridNode.builder(this.registry)
			.clock(this.clock)
			.blockSize(3)
			.threshold(3)
			.prefetchExecutor(Runnable::run)
			.build()) {
			node.nextId();
			assertThat(this.registry.callCount()).isEqualTo(2);
			for (int i = 0; i < 30; i++) {
				node.nextId();
			}
			assertThat(node.stats().stalls()).isOne();
			assertThat(node.stats().synchronousAllocations().count()).isOne();
			assertThat(node.stats().prefetchAllocations().successes()).isEqualTo(this.registry.callCount() - 1);
		}
	}

	@Test
	void blockClampedBelowTheThresholdReservesAheadAtOnce() {
		long maxSequence = CridLayout.DEFAULT.maxSequence();
		InMemoryRegistry shared = new InMemoryRegistry();
		// Another node took all but the last two numbers of second 1,000.
		shared.allocate(1_000, maxSequence - 1);
		RecordingRegistry registry = new RecordingRegistry(shared);
		try (CridNode node = CridNode.builder(registry).clock(this.clock).blockSize(100).threshold(50).build()) {
			assertThat(node.layout().sequenceOf(node.nextId())).isEqualTo(maxSequence - 1);
			await("a 2-ID block never reaches its trigger, so it asks at once").atMost(AWAIT)
				.until(() -> registry.callCount() == 2);
			assertThat(node.layout().sequenceOf(node.nextId())).isEqualTo(maxSequence);
			assertThat(node.stats().nextBlockReady()).as("second 1,000 is used up").isFalse();
			this.clock.advance(Duration.ofSeconds(1));
			await().atMost(AWAIT).until(() -> node.stats().nextBlockReady());
			long id = node.nextId();
			assertThat(node.layout().timestampOf(id)).isEqualTo(1_001);
			assertThat(node.layout().sequenceOf(id)).isZero();
			assertThat(node.stats().stalls()).as("only the first call, which found no block yet").isOne();
			assertThat(registry.calls()).extracting(RecordingRegistry.Call::timestamp)
				.containsExactly(1_000L, 1_000L, 1_001L);
		}
	}

	@Test
	void withThresholdOffEveryBlockIsReservedWhileTheCallerWaits() {
		try (CridNode node = CridNode.builder(this.registry).clock(this.clock).blockSize(10).threshold(0).build()) {
			for (int i = 0; i < 25; i++) {
				node.nextId();
			}
			CridStats stats = node.stats();
			assertThat(stats.idsIssued()).isEqualTo(25);
			assertThat(stats.idsLeftInBlock()).isEqualTo(5);
			assertThat(stats.nextBlockReady()).isFalse();
			assertThat(stats.synchronousAllocations().successes()).isEqualTo(3);
			assertThat(stats.synchronousAllocations().failures()).isZero();
			assertThat(stats.prefetchAllocations().count()).isZero();
			assertThat(stats.stalls()).isEqualTo(3);
			assertThat(stats.consecutiveFailures()).isZero();
			assertThat(stats.lastAllocationTime()).isEqualTo(this.clock.instant());
			assertThat(stats.lastFailureTime()).isNull();
			assertThat(stats.lastFailure()).isNull();
			assertThat(stats.synchronousAllocations().totalTime()).isPositive();
			assertThat(this.registry.callCount()).isEqualTo(3);
		}
	}

	@Test
	void statsCountPrefetchedBlocksAndCallsThatWaited() throws InterruptedException {
		try (CridNode node = CridNode.builder(this.registry).clock(this.clock).blockSize(10).threshold(5).build()) {
			CridStats fresh = node.stats();
			assertThat(fresh.idsIssued()).isZero();
			assertThat(fresh.idsLeftInBlock()).isZero();
			assertThat(fresh.lastAllocationTime()).isNull();
			long started = System.nanoTime();
			node.nextId(); // waits for the first block
			long slowest = System.nanoTime() - started;
			for (int i = 1; i < 6; i++) {
				node.nextId();
			}
			slowest = awaitNextBlock(node, slowest);
			for (int i = 6; i < 31; i++) {
				node.nextId();
				if (node.stats().idsLeftInBlock() == 4) {
					slowest = awaitNextBlock(node, slowest);
				}
			}
			CridStats stats = node.stats();
			assertThat(stats.idsIssued()).isEqualTo(31);
			assertThat(stats.idsLeftInBlock()).isEqualTo(9);
			assertThat(stats.stalls()).isOne();
			assertThat(stats.synchronousAllocations().successes()).isOne();
			assertThat(stats.prefetchAllocations().successes()).isEqualTo(3);
			assertThat(stats.prefetchAllocations().failures()).isZero();
			assertThat(stats.prefetchAllocations().totalTime()).isPositive();
			assertThat(this.registry.callCount()).isEqualTo(4);
		}
	}

	/**
	 * Waits for the next block, then twice as long as the slowest block took to arrive,
	 * and at least a quarter of a second: a block used up faster than either would make
	 * the node ask for larger ones (as on a loaded machine, where blocks arrive late).
	 * Returns the slowest arrival so far.
	 */
	private static long awaitNextBlock(CridNode node, long slowest) throws InterruptedException {
		long asked = System.nanoTime();
		await().atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(1))
			.until(() -> node.stats().nextBlockReady());
		long arrival = Math.max(slowest, System.nanoTime() - asked);
		TimeUnit.NANOSECONDS.sleep(Math.max(2 * arrival, Pacing.GROW_WITHIN_NANOS) + TimeUnit.MILLISECONDS.toNanos(1));
		return arrival;
	}

	@Test
	void idsIssuedCountsEveryThreadsIds() throws Exception {
		try (CridNode node = CridNode.builder(this.registry).clock(this.clock).blockSize(100).threshold(30).build()) {
			int threads = 4;
			int perThread = 5_000;
			ExecutorService executor = Executors.newFixedThreadPool(threads);
			try {
				CompletableFuture<?>[] done = new CompletableFuture<?>[threads];
				for (int t = 0; t < threads; t++) {
					done[t] = CompletableFuture.runAsync(() -> {
						for (int i = 0; i < perThread; i++) {
							node.nextId();
						}
					}, executor);
				}
				CompletableFuture.allOf(done).get(30, TimeUnit.SECONDS);
			}
			finally {
				executor.shutdownNow();
			}
			assertThat(node.stats().idsIssued()).isEqualTo(threads * perThread);
			// Once a prefetch still running has landed, every reserved number is
			// issued, left (in the block or set aside for a stripe's threads) or ready.
			await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
				long reserved = this.registry.calls().stream().mapToLong(RecordingRegistry.Call::blockSize).sum();
				CridStats stats = node.stats();
				assertThat(reserved).isEqualTo(stats.idsIssued() + stats.idsLeftInBlock()
						+ (stats.nextBlockReady() ? stats.allocationSize() : 0));
			});
		}
	}

	@Test
	void backgroundWorkRunsOnADaemonThreadThatCloseStops() {
		CridNode node = CridNode.builder(this.registry).clock(this.clock).build();
		node.nextId();
		Thread thread = this.registry.calls().get(0).thread();
		assertThat(thread.getName()).startsWith("crid-prefetch-");
		assertThat(thread.isDaemon()).isTrue();
		assertThat(thread.isAlive()).isTrue();
		node.close();
		await().atMost(Duration.ofSeconds(5)).until(() -> !thread.isAlive());
	}

	@Test
	void eachNodeHasItsOwnPrefetchThread() {
		try (CridNode first = CridNode.builder(this.registry).clock(this.clock).build();
				CridNode second = CridNode.builder(this.registry).clock(this.clock).build()) {
			first.nextId();
			second.nextId();
			assertThat(this.registry.calls().get(0).thread()).isNotSameAs(this.registry.calls().get(1).thread());
		}
	}

	@Test
	void givenExecutorRunsTheRegistryCallsAndOutlivesTheNode() throws Exception {
		ExecutorService executor = Executors.newSingleThreadExecutor((task) -> new Thread(task, "test-executor"));
		try {
			CridNode node = CridNode.builder(this.registry)
				.clock(this.clock)
				.blockSize(10)
				.threshold(5)
				.prefetchExecutor(executor)
				.build();
			for (int i = 0; i < 15; i++) {
				node.nextId();
			}
			node.close();
			assertThat(executor.isShutdown()).isFalse();
			assertThat(this.registry.calls()).extracting((call) -> call.thread().getName())
				.containsOnly("test-executor");
			assertThat(executor.submit(() -> "still running").get(10, TimeUnit.SECONDS)).isEqualTo("still running");
		}
		finally {
			executor.shutdownNow();
		}
	}

	@Test
	void nextIdAfterCloseFailsClearly() {
		CridNode node = CridNode.builder(this.registry).clock(this.clock).build();
		long id = node.nextId();
		node.close();
		assertThat(node.isClosed()).isTrue();
		assertThatExceptionOfType(NodeClosedException.class).isThrownBy(node::nextId)
			.withMessageContaining("closed")
			.isInstanceOf(CridException.class);
		assertThatExceptionOfType(NodeClosedException.class).isThrownBy(node::next);
		assertThat(node.stats().idsIssued()).isOne();
		assertThat(node.stats().idsLeftInBlock()).isZero();
		assertThat(id).isNotNegative();
	}

	@Test
	void closeIsIdempotent() {
		CridNode node = CridNode.builder(this.registry).clock(this.clock).build();
		node.nextId();
		node.close();
		node.close();
		assertThat(node.isClosed()).isTrue();
		assertThatExceptionOfType(NodeClosedException.class).isThrownBy(node::nextId);
		CridNode unused = CridNode.builder(this.registry).clock(this.clock).build();
		unused.close();
		unused.close();
		assertThat(unused.isClosed()).isTrue();
		assertThatExceptionOfType(NodeClosedException.class).isThrownBy(unused::nextId);
		assertThat(this.registry.callCount()).isOne();
	}

	@Test
	void closeReleasesACallerWaitingForTheRegistryAndInterruptsTheCall() throws Exception {
		Gate gate = new Gate();
		this.registry.then(gate);
		CridNode node = CridNode.builder(this.registry)
			.clock(this.clock)
			.allocationTimeout(Duration.ofSeconds(20))
			.build();
		CompletableFuture<Long> waiting = CompletableFuture.supplyAsync(node::nextId);
		await().atMost(Duration.ofSeconds(10)).until(() -> gate.entered() == 1);
		node.close();
		assertThat(waiting).failsWithin(Duration.ofSeconds(5))
			.withThrowableOfType(java.util.concurrent.ExecutionException.class)
			.withCauseInstanceOf(NodeClosedException.class);
		assertThat(gate.interrupted()).isOne();
	}

	@Test
	void clockThatMovesBackKeepsIdsUnique() {
		try (CridNode node = CridNode.builder(this.registry).clock(this.clock).blockSize(4).threshold(0).build()) {
			Set<Long> ids = new HashSet<>();
			for (int i = 0; i < 8; i++) {
				assertThat(ids.add(node.nextId())).isTrue();
			}
			this.clock.advance(Duration.ofSeconds(-30));
			for (int i = 0; i < 8; i++) {
				assertThat(ids.add(node.nextId())).isTrue();
			}
			this.clock.advance(Duration.ofSeconds(30));
			for (int i = 0; i < 8; i++) {
				assertThat(ids.add(node.nextId())).isTrue();
			}
			assertThat(this.registry.calls()).extracting(RecordingRegistry.Call::timestamp)
				.containsExactly(1_000L, 1_000L, 970L, 970L, 1_000L, 1_000L);
			assertThat(this.registry.calls()).extracting(RecordingRegistry.Call::start)
				.containsExactly(0L, 4L, 0L, 4L, 8L, 12L);
		}
	}

}
