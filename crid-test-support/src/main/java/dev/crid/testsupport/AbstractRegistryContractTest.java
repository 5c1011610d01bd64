package dev.crid.testsupport;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import dev.crid.CridLayout;
import dev.crid.Registry;
import dev.crid.RegistryException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The contract every {@link Registry} keeps, with the Go crid's wire meaning: for each
 * timestamp, blocks that tile the sequence numbers from 0 without gaps or overlaps,
 * whoever asks. One short subclass per implementation or database.
 */
public abstract class AbstractRegistryContractTest {

	private static final AtomicLong timestamps = new AtomicLong(
			1_000_000 + ThreadLocalRandom.current().nextLong(1_000_000_000));

	/**
	 * Returns the registry under test, shared by the tests of one class.
	 * @return the registry
	 */
	protected abstract Registry registry();

	/**
	 * Returns how many reservations each of the contention test's threads makes.
	 * @return reservations per thread
	 */
	protected int reservationsPerThread() {
		return 200;
	}

	/**
	 * Returns the next unreserved sequence number of a timestamp as the registry stores
	 * it; by default it asks the registry for a block of one, whose start is that number.
	 * @param timestamp the timestamp
	 * @return its next unreserved sequence number
	 */
	protected long storedNextSequence(long timestamp) {
		return registry().allocate(timestamp, 1);
	}

	/**
	 * Returns a timestamp that no other test of this run has used.
	 * @return a fresh timestamp
	 */
	protected static long freshTimestamp() {
		return timestamps.incrementAndGet();
	}

	@Test
	void startsOfOneSecondAreZeroThenMultiplesOfTheBlockSize() {
		long timestamp = freshTimestamp();
		int reservations = 6;
		long blockSize = 250;
		List<Long> starts = new ArrayList<>();
		for (int i = 0; i < reservations; i++) {
			starts.add(registry().allocate(timestamp, blockSize));
		}
		assertThat(starts).containsExactly(0L, 250L, 500L, 750L, 1000L, 1250L);
		assertThat(storedNextSequence(timestamp)).isEqualTo(reservations * blockSize);
	}

	@Test
	void blocksOfDifferentSizesFollowEachOther() {
		long timestamp = freshTimestamp();
		assertThat(registry().allocate(timestamp, 1)).isZero();
		assertThat(registry().allocate(timestamp, 10_000)).isEqualTo(1);
		assertThat(registry().allocate(timestamp, 7)).isEqualTo(10_001);
		assertThat(storedNextSequence(timestamp)).isEqualTo(10_008);
	}

	@Test
	void distinctTimestampsAreIndependent() {
		long first = freshTimestamp();
		long second = freshTimestamp();
		assertThat(registry().allocate(first, 10)).isZero();
		assertThat(registry().allocate(first, 10)).isEqualTo(10);
		assertThat(registry().allocate(second, 10)).isZero();
		assertThat(registry().allocate(first, 10)).isEqualTo(20);
		assertThat(registry().allocate(second, 3)).isEqualTo(10);
	}

	@Test
	void handlesTheLargestTimestampAndSequenceOfTheDefaultLayout() {
		long timestamp = CridLayout.DEFAULT.maxTimestamp() - (freshTimestamp() % 1000);
		long wholeSecond = CridLayout.DEFAULT.maxSequence() + 1;
		assertThat(registry().allocate(timestamp, wholeSecond)).isZero();
		assertThat(registry().allocate(timestamp, wholeSecond)).isEqualTo(wholeSecond);
	}

	@Test
	void reservesNonOverlappingBlocksUnderContention() throws Exception {
		long timestamp = freshTimestamp();
		int threads = 8;
		int perThread = reservationsPerThread();
		ExecutorService executor = Executors.newFixedThreadPool(threads);
		CountDownLatch start = new CountDownLatch(1);
		List<Future<List<long[]>>> futures = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			futures.add(executor.submit(() -> {
				List<long[]> blocks = new ArrayList<>();
				start.await();
				for (int i = 0; i < perThread; i++) {
					long size = ThreadLocalRandom.current().nextLong(1, 101);
					blocks.add(new long[] { allocateAsANodeDoes(timestamp, size), size });
				}
				return blocks;
			}));
		}
		start.countDown();
		List<long[]> blocks = new ArrayList<>();
		for (Future<List<long[]>> future : futures) {
			blocks.addAll(future.get(60, TimeUnit.SECONDS));
		}
		executor.shutdown();
		blocks.sort(Comparator.comparingLong((block) -> block[0]));
		long expectedStart = 0;
		for (long[] block : blocks) {
			assertThat(block[0]).as("start of the block after [0, %d)", expectedStart).isEqualTo(expectedStart);
			expectedStart += block[1];
		}
		assertThat(blocks).hasSize(threads * perThread);
		assertThat(storedNextSequence(timestamp)).isEqualTo(expectedStart);
	}

	@Test
	void threadsRacingToOpenTheSameNewSecondsGetNonOverlappingBlocks() throws Exception {
		int threads = 8;
		int seconds = 40;
		long first = freshTimestamp();
		for (int i = 1; i < seconds; i++) {
			freshTimestamp();
		}
		ExecutorService executor = Executors.newFixedThreadPool(threads);
		CyclicBarrier eachSecond = new CyclicBarrier(threads);
		List<Future<long[]>> futures = new ArrayList<>();
		for (int t = 0; t < threads; t++) {
			long size = t + 1;
			futures.add(executor.submit(() -> {
				long[] starts = new long[seconds];
				for (int i = 0; i < seconds; i++) {
					eachSecond.await(30, TimeUnit.SECONDS);
					starts[i] = registry().allocate(first + i, size);
				}
				return starts;
			}));
		}
		List<long[]> startsByThread = new ArrayList<>();
		for (Future<long[]> future : futures) {
			startsByThread.add(future.get(60, TimeUnit.SECONDS));
		}
		executor.shutdown();
		for (int i = 0; i < seconds; i++) {
			List<long[]> blocks = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				blocks.add(new long[] { startsByThread.get(t)[i], t + 1 });
			}
			blocks.sort(Comparator.comparingLong((block) -> block[0]));
			long expectedStart = 0;
			for (long[] block : blocks) {
				assertThat(block[0]).as("second %d: start of the block after [0, %d)", first + i, expectedStart)
					.isEqualTo(expectedStart);
				expectedStart += block[1];
			}
		}
	}

	@Test
	void namesItsKindInAShortLowerCaseWord() {
		assertThat(registry().kind()).matches("[a-z][a-z0-9]*");
	}

	@Test
	void aRegistryThatServesPassesItsOwnCheck() {
		registry().allocate(freshTimestamp(), 1);
		registry().check();
	}

	@Test
	void rejectsANegativeTimestamp() {
		assertThatIllegalArgumentException().isThrownBy(() -> registry().allocate(-1, 10))
			.withMessageContaining("timestamp")
			.withMessageContaining("-1");
	}

	@Test
	void rejectsABlockSizeBelowOne() {
		long timestamp = freshTimestamp();
		assertThatIllegalArgumentException().isThrownBy(() -> registry().allocate(timestamp, 0))
			.withMessageContaining("blockSize");
		assertThatIllegalArgumentException().isThrownBy(() -> registry().allocate(timestamp, -5))
			.withMessageContaining("blockSize")
			.withMessageContaining("-5");
		assertThat(registry().allocate(timestamp, 5)).as("nothing was reserved by the rejected calls").isZero();
	}

	/**
	 * Reserves as a node does: a failure the registry calls retryable (a pool without a
	 * free connection, on a loaded machine) is asked again, for half a minute at most. A
	 * failed call must leave no trace: the contention test finds any gap it left.
	 */
	private long allocateAsANodeDoes(long timestamp, long size) throws InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
		while (true) {
			try {
				return registry().allocate(timestamp, size);
			}
			catch (RegistryException ex) {
				if (!ex.isRetryable() || System.nanoTime() - deadline >= 0) {
					throw ex;
				}
				TimeUnit.MILLISECONDS.sleep(10);
			}
		}
	}

}
