package dev.crid;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link InMemoryRegistry}.
 */
class InMemoryRegistryTest {

	@Test
	void handsOutConsecutiveBlocksPerTimestamp() {
		InMemoryRegistry registry = new InMemoryRegistry();
		assertThat(registry.allocate(7, 10)).isZero();
		assertThat(registry.allocate(7, 5)).isEqualTo(10);
		assertThat(registry.allocate(8, 3)).isZero();
		assertThat(registry.allocate(7, 1)).isEqualTo(15);
		assertThat(registry.allocate(8, 3)).isEqualTo(3);
		assertThat(registry.size()).isEqualTo(2);
	}

	@Test
	void keepsCountingPastTheLargestSequenceSoNodesSeeTheSecondIsUsedUp() {
		InMemoryRegistry registry = new InMemoryRegistry();
		long maxSequence = CridLayout.DEFAULT.maxSequence();
		assertThat(registry.allocate(1, maxSequence + 1)).isZero();
		assertThat(registry.allocate(1, 10)).isEqualTo(maxSequence + 1);
	}

	@Test
	void remembersOnlyTheMostRecentTimestamps() {
		InMemoryRegistry registry = new InMemoryRegistry(3);
		for (long timestamp = 100; timestamp < 1100; timestamp++) {
			registry.allocate(timestamp, 1);
			assertThat(registry.size()).isLessThanOrEqualTo(3);
		}
		assertThat(registry.size()).isEqualTo(3);
		assertThat(registry.allocate(1099, 1)).isOne();
		assertThat(registry.allocate(1097, 1)).isOne();
	}

	@Test
	void aNodeAskingForAForgottenSecondFailsAtOnceInsteadOfRetryingWithinItsBudget() {
		MutableClock clock = new MutableClock(CridLayout.DEFAULT_EPOCH.plusSeconds(100));
		InMemoryRegistry memory = new InMemoryRegistry(1);
		memory.allocate(100, 1);
		memory.allocate(101, 1); // forgets second 100, the node's
		RecordingRegistry registry = new RecordingRegistry(memory);
		try (CridNode node = CridNode.builder(registry).clock(clock).allocationTimeout(Duration.ofMinutes(1)).build()) {
			assertThatExceptionOfType(RegistryException.class).isThrownBy(node::nextId)
				.withMessageContaining("Timestamp 100");
			assertThat(registry.callCount()).as("registry calls: none retried").isOne();
		}
	}

	@Test
	void refusesTimestampsItHasForgotten() {
		InMemoryRegistry registry = new InMemoryRegistry(2);
		registry.allocate(10, 5);
		registry.allocate(11, 5);
		registry.allocate(12, 5);
		assertThatExceptionOfType(RegistryException.class).isThrownBy(() -> registry.allocate(10, 5))
			.withMessageContaining("Timestamp 10")
			.withMessageContaining("forgot up to 10")
			.matches((ex) -> !ex.isRetryable(), "not retryable: asking again cannot bring the second back");
		assertThatExceptionOfType(RegistryException.class).isThrownBy(() -> registry.allocate(3, 5));
		assertThat(registry.allocate(11, 5)).isEqualTo(5);
	}

	@Test
	void neverHandsOutABlockTwiceForAnOldTimestampThatDoesNotFitTheWindow() {
		InMemoryRegistry registry = new InMemoryRegistry(2);
		registry.allocate(50, 1);
		registry.allocate(51, 1);
		// 20 is older than everything remembered: it may be answered once, but then it is
		// forgotten at once and every later call for it must be refused rather than start
		// again at 0.
		long first = registry.allocate(20, 4);
		assertThat(first).isZero();
		assertThatExceptionOfType(RegistryException.class).isThrownBy(() -> registry.allocate(20, 4));
		assertThat(registry.size()).isEqualTo(2);
		assertThat(registry.allocate(50, 1)).isOne();
	}

	@Test
	void neverHandsOutOverlappingBlocksUnderRandomOperations() {
		java.util.SplittableRandom random = new java.util.SplittableRandom(20260101);
		for (int round = 0; round < 200; round++) {
			int retained = 1 + random.nextInt(6);
			InMemoryRegistry registry = new InMemoryRegistry(retained);
			TreeMap<Long, List<long[]>> handedOut = new TreeMap<>();
			long newest = 1_000;
			int refusals = 0;
			for (int call = 0; call < 300; call++) {
				newest += random.nextInt(3);
				long timestamp = Math.max(0, newest - random.nextInt(2 * retained + 2));
				long blockSize = 1 + random.nextInt(20);
				long start;
				try {
					start = registry.allocate(timestamp, blockSize);
				}
				catch (RegistryException ex) {
					refusals++;
					continue;
				}
				for (long[] block : handedOut.getOrDefault(timestamp, List.of())) {
					assertThat(start + blockSize <= block[0] || block[1] <= start)
						.as("round %d: block [%d, %d) of timestamp %d overlaps [%d, %d)", round, start,
								start + blockSize, timestamp, block[0], block[1])
						.isTrue();
				}
				handedOut.computeIfAbsent(timestamp, (key) -> new ArrayList<>())
					.add(new long[] { start, start + blockSize });
				assertThat(registry.size()).isLessThanOrEqualTo(retained);
			}
			assertThat(refusals).as("round %d refused nothing, so forgetting was not exercised", round).isPositive();
		}
	}

	@Test
	void concurrentCallersGetDisjointBlocks() throws Exception {
		InMemoryRegistry registry = new InMemoryRegistry();
		int threads = 4;
		int calls = 20_000;
		CyclicBarrier barrier = new CyclicBarrier(threads);
		ExecutorService executor = Executors.newFixedThreadPool(threads);
		try {
			List<CompletableFuture<long[]>> results = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				long blockSize = t + 1;
				results.add(CompletableFuture.supplyAsync(() -> {
					await(barrier);
					long[] starts = new long[calls];
					for (int i = 0; i < calls; i++) {
						starts[i] = registry.allocate(42 + (i % 3), blockSize);
					}
					return starts;
				}, executor));
			}
			// Timestamp 42 + k gets every third call of each thread; mark each sequence
			// number as it is reserved.
			long total = 0;
			for (int t = 0; t < threads; t++) {
				total += (long) (calls / 3 + 1) * (t + 1);
			}
			boolean[][] taken = new boolean[3][(int) total + 1];
			for (int t = 0; t < threads; t++) {
				long[] starts = results.get(t).get(30, TimeUnit.SECONDS);
				for (int i = 0; i < calls; i++) {
					for (long sequence = starts[i]; sequence < starts[i] + t + 1; sequence++) {
						assertThat(taken[i % 3][(int) sequence])
							.as("sequence %d of timestamp %d reserved twice", sequence, 42 + i % 3)
							.isFalse();
						taken[i % 3][(int) sequence] = true;
					}
				}
			}
		}
		finally {
			executor.shutdownNow();
		}
	}

	@Test
	void nodeWhoseClockJumpsBackPastTheWindowIsRefusedRatherThanGivenUsedNumbers() {
		InMemoryRegistry registry = new InMemoryRegistry(3);
		MutableClock clock = new MutableClock(CridLayout.DEFAULT_EPOCH.plusSeconds(100));
		try (CridNode node = CridNode.builder(registry).clock(clock).blockSize(2).threshold(0).build()) {
			java.util.Set<Long> ids = new java.util.HashSet<>();
			for (int second = 0; second < 5; second++) {
				clock.set(CridLayout.DEFAULT_EPOCH.plusSeconds(100 + second));
				assertThat(ids.add(node.nextId())).isTrue();
				assertThat(ids.add(node.nextId())).isTrue();
			}
			clock.set(CridLayout.DEFAULT_EPOCH.plusSeconds(101));
			assertThatExceptionOfType(RegistryException.class).isThrownBy(node::nextId)
				.withMessageContaining("Timestamp 101");
			clock.set(CridLayout.DEFAULT_EPOCH.plusSeconds(103));
			assertThat(ids.add(node.nextId())).isTrue();
			assertThat(node.layout().sequenceOf(node.nextId())).isEqualTo(3);
			assertThat(registry.size()).isEqualTo(3);
		}
	}

	@Test
	void rejectsInvalidArguments() {
		assertThatIllegalArgumentException().isThrownBy(() -> new InMemoryRegistry(0)).withMessageContaining("0");
		InMemoryRegistry registry = new InMemoryRegistry();
		assertThatIllegalArgumentException().isThrownBy(() -> registry.allocate(-1, 1)).withMessageContaining("-1");
		assertThatIllegalArgumentException().isThrownBy(() -> registry.allocate(1, 0)).withMessageContaining("0");
		assertThat(registry.size()).isZero();
	}

	@Test
	void secondWhoseCounterWouldOverflowIsUsedUpRatherThanRefused() {
		InMemoryRegistry registry = new InMemoryRegistry();
		assertThat(registry.allocate(0, Long.MAX_VALUE - 5)).isZero();
		assertThat(registry.allocate(0, 10)).as("the last block still starts where the counter stood")
			.isEqualTo(Long.MAX_VALUE - 5);
		assertThat(registry.allocate(0, 1)).as("used up").isEqualTo(Long.MAX_VALUE);
		assertThat(registry.allocate(0, 1)).isEqualTo(Long.MAX_VALUE);
		assertThat(registry.allocate(1, 1)).isZero();
	}

	@Test
	void recordsTheFirstLayoutAndRefusesAnother() {
		InMemoryRegistry registry = new InMemoryRegistry();
		CridLayout first = CridLayout.DEFAULT;
		CridLayout other = CridLayout.of(CridLayout.DEFAULT_EPOCH, 32, 31);
		registry.checkLayout(first);
		registry.checkLayout(CridLayout.of(CridLayout.DEFAULT_EPOCH, 31, 32));
		assertThatExceptionOfType(LayoutMismatchException.class).isThrownBy(() -> registry.checkLayout(other))
			.withMessageContaining("31 timestamp bits and 32 sequence bits")
			.withMessageContaining("32 timestamp bits and 31 sequence bits")
			.satisfies((ex) -> {
				assertThat(ex.registryLayout()).isEqualTo(first);
				assertThat(ex.nodeLayout()).isEqualTo(other);
				assertThat(ex.isRetryable()).isFalse();
			});
	}

	@Test
	void defaultRetentionIsOneHour() {
		InMemoryRegistry registry = new InMemoryRegistry();
		for (long timestamp = 0; timestamp < 3601; timestamp++) {
			registry.allocate(timestamp, 1);
		}
		assertThat(registry.size()).isEqualTo(InMemoryRegistry.DEFAULT_RETAINED_TIMESTAMPS).isEqualTo(3600);
		assertThatExceptionOfType(RegistryException.class).isThrownBy(() -> registry.allocate(0, 1));
		assertThat(registry.allocate(1, 1)).isOne();
	}

	private static void await(CyclicBarrier barrier) {
		try {
			barrier.await(10, TimeUnit.SECONDS);
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

}
