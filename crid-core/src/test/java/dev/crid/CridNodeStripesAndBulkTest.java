package dev.crid;

import java.lang.invoke.MethodHandles;
import java.lang.reflect.Field;
import java.lang.invoke.MethodType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Tests for how a node hands out IDs to many threads at once (per-core stripes, each
 * serving a slice of the block) and many IDs at once ({@link CridNode#nextIds(int)}):
 * unique, counted exactly, and cheap on the registry.
 */
class CridNodeStripesAndBulkTest {

	private final RecordingRegistry registry = new RecordingRegistry(new InMemoryRegistry());

	@Test
	void manyThreadsOnSeveralNodesNeverRepeatAnIdAndEveryIdIsCounted() throws Exception {
		List<CridNode> nodes = new ArrayList<>();
		ExecutorService pool = Executors.newFixedThreadPool(12);
		CountDownLatch go = new CountDownLatch(1);
		try {
			List<CompletableFuture<long[]>> takers = new ArrayList<>();
			List<List<CompletableFuture<long[]>>> perNode = new ArrayList<>();
			for (int n = 0; n < 3; n++) {
				CridNode node = CridNode.builder(this.registry).blockSize(64).threshold(32).build();
				nodes.add(node);
				List<CompletableFuture<long[]>> mine = new ArrayList<>();
				for (int t = 0; t < 3; t++) {
					mine.add(CompletableFuture.supplyAsync(() -> oneByOne(go, node, 20_000), pool));
				}
				mine.add(CompletableFuture.supplyAsync(() -> inBulk(go, node, 20, 1_000), pool));
				perNode.add(mine);
				takers.addAll(mine);
			}
			go.countDown();
			long[] all = merge(takers);
			assertThat(all).hasSize(3 * 80_000);
			assertThat(Arrays.stream(all).distinct().count()).as("distinct IDs").isEqualTo(all.length);
			for (int n = 0; n < 3; n++) {
				assertThat(nodes.get(n).stats().idsIssued()).as("IDs node %d counted", n)
					.isEqualTo(merge(perNode.get(n)).length);
			}
		}
		finally {
			pool.shutdownNow();
			nodes.forEach(CridNode::close);
		}
	}

	@Test
	void everyReservedNumberIsIssuedLeftOrReady() throws Exception {
		try (CridNode node = CridNode.builder(this.registry).blockSize(1_000).threshold(500).build()) {
			ExecutorService pool = Executors.newFixedThreadPool(6);
			CountDownLatch go = new CountDownLatch(1);
			try {
				List<CompletableFuture<long[]>> takers = new ArrayList<>();
				for (int t = 0; t < 6; t++) {
					takers.add(CompletableFuture.supplyAsync(() -> oneByOne(go, node, 7_777), pool));
				}
				go.countDown();
				merge(takers);
			}
			finally {
				pool.shutdownNow();
			}
			org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
				long reserved = this.registry.calls().stream().mapToLong(RecordingRegistry.Call::blockSize).sum();
				CridStats stats = node.stats();
				assertThat(stats.idsIssued()).isEqualTo(6 * 7_777);
				assertThat(reserved).isEqualTo(stats.idsIssued() + stats.idsLeftInBlock()
						+ (stats.nextBlockReady() ? stats.allocationSize() : 0));
			});
		}
	}

	@Test
	void nextIdsTakesOneStepPerBlockAndSpansBlocks() {
		try (CridNode node = CridNode.builder(this.registry).blockSize(10_000).threshold(0).build()) {
			long[] ids = node.nextIds(25_000);
			assertThat(ids).hasSize(25_000);
			assertThat(Arrays.stream(ids).distinct().count()).isEqualTo(25_000);
			assertThat(this.registry.calls()).as("one registry call per block touched")
				.hasSize(3)
				.allSatisfy((call) -> assertThat(call.blockSize()).isEqualTo(10_000));
			// Within a block, consecutive sequence numbers in the order taken.
			for (int i = 1; i < 10_000; i++) {
				assertThat(ids[i]).isEqualTo(ids[i - 1] + 1);
			}
			assertThat(node.stats().idsIssued()).isEqualTo(25_000);
			assertThat(node.stats().idsLeftInBlock()).isEqualTo(5_000);
			long next = node.nextId();
			assertThat(Arrays.stream(ids).noneMatch((id) -> id == next)).isTrue();
			assertThat(this.registry.callCount()).as("the third block still serves").isEqualTo(3);
		}
	}

	@Test
	void nextIdsOfNoneIsEmptyAndANegativeCountIsRefused() {
		try (CridNode node = CridNode.builder(this.registry).build()) {
			assertThat(node.nextIds(0)).isEmpty();
			assertThat(this.registry.callCount()).isZero();
			assertThatIllegalArgumentException().isThrownBy(() -> node.nextIds(-1)).withMessageContaining("-1");
		}
	}

	@Test
	void nextIdsFailsAsNextIdDoes() {
		this.registry.otherwise(RecordingRegistry.Answer.fail(new IllegalStateException("Connection refused")));
		Duration timeout = Duration.ofMillis(300);
		CridNode node = CridNode.builder(this.registry).allocationTimeout(timeout).build();
		long started = System.nanoTime();
		assertThatExceptionOfType(RegistryException.class).isThrownBy(() -> node.nextIds(10))
			.withMessageContaining("within the allocation timeout of PT0.3S")
			.withMessageContaining("Connection refused");
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(timeout)
			.isLessThan(timeout.plusSeconds(2));
		node.close();
		assertThatExceptionOfType(NodeClosedException.class).isThrownBy(() -> node.nextIds(10));
	}

	@Test
	void aClosedNodeHandsOutNothingFromItsStripes() {
		CridNode node = CridNode.builder(this.registry).blockSize(10_000).build();
		for (int i = 0; i < 10; i++) {
			node.nextId();
		}
		assertThat(node.stats().idsLeftInBlock()).isEqualTo(9_990);
		node.close();
		assertThatExceptionOfType(NodeClosedException.class).isThrownBy(node::nextId);
		assertThat(node.stats().idsIssued()).isEqualTo(10);
	}

	@Test
	void aStripesOtherThreadsTakeFromItsSliceWhileTheThreadThatTookTheSliceAsksForTheNextBlock() throws Exception {
		CountDownLatch asking = new CountDownLatch(1);
		CountDownLatch answer = new CountDownLatch(1);
		AtomicInteger submitted = new AtomicInteger();
		Executor executor = (task) -> {
			if (submitted.incrementAndGet() == 2) { // the next block, asked for at the
													// trigger
				asking.countDown();
				awaitStart(answer);
			}
			new Thread(task).start();
		};
		// The trigger at offset 1: the taker of the first slice asks for the next block.
		try (CridNode node = CridNode.builder(new InMemoryRegistry())
			.blockSize(10_000)
			.threshold(9_999)
			.prefetchExecutor(executor)
			.build()) {
			node.warmUp();
			CompletableFuture<Long> first = new CompletableFuture<>();
			CompletableFuture<Long> second = new CompletableFuture<>();
			Thread taker = new Thread(() -> take(node, first));
			Thread other = onTheStripeOf(taker, () -> take(node, second));
			taker.start();
			long otherId;
			try {
				assertThat(asking.await(10, TimeUnit.SECONDS)).as("the taker asks for the next block").isTrue();
				other.start();
				otherId = second.get(10, TimeUnit.SECONDS); // while the taker still asks
			}
			finally {
				answer.countDown();
			}
			assertThat(otherId).as("the slice's next ID").isEqualTo(first.get(10, TimeUnit.SECONDS) + 1);
		}
	}

	@Test
	void aCallerWaitingForTheNextBlockHoldsNoStripe() throws Exception {
		Gate gate = new Gate();
		RecordingRegistry registry = new RecordingRegistry(new InMemoryRegistry())
			.then((delegate, timestamp, size) -> delegate.allocate(timestamp, size))
			.then(gate);
		// No prefetch: the caller that uses the block up waits for the next one.
		try (CridNode node = CridNode.builder(registry).blockSize(100).threshold(0).build()) {
			CompletableFuture<Long> taken = new CompletableFuture<>();
			Thread caller = new Thread(() -> {
				for (int i = 0; i < 100; i++) {
					node.nextId();
				}
				take(node, taken);
			});
			caller.start();
			await().atMost(Duration.ofSeconds(10)).until(() -> gate.entered() == 1);
			try {
				// Parked, a caller may come back long after the block is in: its stripe
				// must not wait for it.
				assertThat(stripeSlots(node)).as("stripes held while their caller waits")
					.doesNotContain(Slice.REFILLING);
			}
			finally {
				gate.open();
			}
			assertThat(taken.get(10, TimeUnit.SECONDS)).isPositive();
		}
	}

	private static Slice[] stripeSlots(CridNode node) throws ReflectiveOperationException {
		Field slots = CridNode.class.getDeclaredField("stripeSlots");
		slots.setAccessible(true);
		return ((Slice[]) slots.get(node)).clone();
	}

	private static void take(CridNode node, CompletableFuture<Long> id) {
		try {
			id.complete(node.nextId());
		}
		catch (Throwable ex) {
			id.completeExceptionally(ex);
		}
	}

	/** A new thread, not started, that takes its IDs from the stripe of the given one. */
	private static Thread onTheStripeOf(Thread thread, Runnable task) {
		while (true) {
			Thread candidate = new Thread(task);
			if (Stripes.slotOf(candidate) == Stripes.slotOf(thread)) {
				return candidate;
			}
		}
	}

	@Test
	void thousandsOfVirtualThreadsShareAFewStripes() throws Exception {
		ExecutorService virtualThreads = virtualThreadPerTaskExecutor();
		assumeTrue(virtualThreads != null, "virtual threads need Java 21 or later; .ci/run runs this test on one");
		try (CridNode node = CridNode.builder(this.registry).blockSize(1_000).threshold(500).build()) {
			CountDownLatch go = new CountDownLatch(1);
			List<CompletableFuture<long[]>> takers = new ArrayList<>();
			for (int t = 0; t < 2_000; t++) {
				takers.add(CompletableFuture.supplyAsync(() -> oneByOne(go, node, 100), virtualThreads));
			}
			go.countDown();
			long[] all = merge(takers);
			assertThat(Arrays.stream(all).distinct().count()).isEqualTo(200_000);
			assertThat(node.stats().idsIssued()).isEqualTo(200_000);
			long reserved = this.registry.calls().stream().mapToLong(RecordingRegistry.Call::blockSize).sum();
			// Had each of the 2,000 threads held a slice of its own, thousands of numbers
			// would sit unused.
			assertThat(reserved - node.stats().idsIssued()).as("numbers set aside but not handed out")
				.isLessThan(2 * node.stats().allocationSize());
		}
		finally {
			virtualThreads.shutdown();
		}
	}

	private static long[] oneByOne(CountDownLatch go, CridNode node, int count) {
		awaitStart(go);
		long[] ids = new long[count];
		for (int i = 0; i < count; i++) {
			ids[i] = node.nextId();
		}
		return ids;
	}

	private static long[] inBulk(CountDownLatch go, CridNode node, int times, int count) {
		awaitStart(go);
		long[] ids = new long[0];
		for (int i = 0; i < times; i++) {
			long[] taken = node.nextIds(count);
			long[] merged = Arrays.copyOf(ids, ids.length + taken.length);
			System.arraycopy(taken, 0, merged, ids.length, taken.length);
			ids = merged;
		}
		return ids;
	}

	/**
	 * Holds every taker until all are started, so that they overlap instead of running
	 * one after another.
	 */
	private static void awaitStart(CountDownLatch go) {
		try {
			go.await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private static long[] merge(List<CompletableFuture<long[]>> takers) throws Exception {
		List<long[]> parts = new ArrayList<>();
		for (CompletableFuture<long[]> taker : takers) {
			parts.add(taker.get(60, TimeUnit.SECONDS));
		}
		return parts.stream().flatMapToLong(Arrays::stream).toArray();
	}

	/**
	 * Java 21's Executors.newVirtualThreadPerTaskExecutor(), or null on an older runtime.
	 */
	private static ExecutorService virtualThreadPerTaskExecutor() {
		try {
			return (ExecutorService) MethodHandles.publicLookup()
				.findStatic(Executors.class, "newVirtualThreadPerTaskExecutor",
						MethodType.methodType(ExecutorService.class))
				.invoke();
		}
		catch (NoSuchMethodException ex) {
			return null;
		}
		catch (Throwable ex) {
			throw new IllegalStateException(ex);
		}
	}

}
