package dev.crid;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link Pacing}: when the next block is asked for, and how large it is, from
 * measured rates and registry latencies.
 */
class PacingTest {

	private static final long MILLIS = TimeUnit.MILLISECONDS.toNanos(1);

	@Test
	void startsAtTheConfiguredThresholdAndBlockSize() {
		Pacing pacing = new Pacing(10_000, 5_000, 1L << 32);
		Block block = block(10_000);
		pacing.installing(Block.empty(), block, 1);
		assertThat(pacing.threshold()).isEqualTo(5_000);
		assertThat(block.trigger).isEqualTo(5_000);
		assertThat(pacing.allocationSize()).isEqualTo(10_000);
	}

	@Test
	void asksEarlierWhenTheRateTimesTheSlowestAnswerExceedsTheThreshold() {
		Pacing pacing = new Pacing(10_000, 1_000, 1L << 32);
		// Answers take 1 ms, but one took 4 ms: the slowest recent answer counts, not the
		// mean.
		for (int i = 0; i < 10; i++) {
			pacing.arrived(MILLIS);
		}
		pacing.arrived(4 * MILLIS);
		long now = 1_000 * MILLIS;
		Block first = block(10_000);
		pacing.installing(Block.empty(), first, now);
		// 10,000 IDs in 20 ms: 500 per ms, so 2,000 go by during the slowest answer;
		// twice that is 4,000.
		Block second = block(10_000);
		pacing.installing(first, second, now + 20 * MILLIS);
		assertThat(pacing.threshold()).isEqualTo(4_000);
		assertThat(second.trigger).isEqualTo(6_000);
	}

	@Test
	void neverAsksLaterThanTheConfiguredThreshold() {
		Pacing pacing = new Pacing(10_000, 5_000, 1L << 32);
		pacing.arrived(MILLIS / 1_000);
		Block first = block(10_000);
		pacing.installing(Block.empty(), first, 1);
		Block second = block(10_000);
		// A slow node: 10,000 IDs in 10 s, so the measured need is 2 IDs.
		pacing.installing(first, second, 1 + 10_000 * MILLIS);
		assertThat(pacing.threshold()).isEqualTo(5_000);
		assertThat(second.trigger).isEqualTo(5_000);
	}

	@Test
	void growsTheBlockWhileBlocksGoFasterThanTheRegistryAnswersThenShrinksItBack() {
		Pacing pacing = new Pacing(1_000, 500, 1L << 32);
		pacing.arrived(10 * MILLIS);
		long now = 1;
		Block retired = block(1_000);
		pacing.installing(Block.empty(), retired, now);
		for (long expected : new long[] { 2_000, 4_000, 8_000, 16_000, 32_000, 64_000, 64_000 }) {
			// Each block lasts 5 ms, less than two 10 ms answers.
			now += 5 * MILLIS;
			Block next = block(pacing.allocationSize());
			pacing.installing(retired, next, now);
			assertThat(pacing.allocationSize()).as("grown, up to 64 times the block size").isEqualTo(expected);
			assertThat(next.trigger).as("a block this fast asks for the next at once").isZero();
			retired = next;
		}
		for (long expected : new long[] { 32_000, 16_000, 8_000, 4_000, 2_000, 1_000, 1_000 }) {
			// Each block lasts two seconds, more than 64 answers and more than a second.
			now += 2_000 * MILLIS;
			Block next = block(pacing.allocationSize());
			pacing.installing(retired, next, now);
			assertThat(pacing.allocationSize()).as("shrunk, never below the block size").isEqualTo(expected);
			retired = next;
		}
	}

	@Test
	void growsABlockThatLastsLessThanAQuarterOfASecondThoughTheRegistryAnswersAtOnce() {
		Pacing pacing = new Pacing(10_000, 5_000, 1L << 32);
		pacing.arrived(MILLIS / 10);
		long now = 1;
		Block retired = block(10_000);
		pacing.installing(Block.empty(), retired, now);
		// 10,000 IDs in 60 ms, the next 20,000 in 120 ms, then 40,000 in 240 ms: each
		// block lasts less than a quarter of a second, though far more than two answers.
		for (long expected : new long[] { 20_000, 40_000, 80_000 }) {
			now += 6 * retired.size / 1_000 * MILLIS;
			Block next = block(pacing.allocationSize());
			pacing.installing(retired, next, now);
			assertThat(pacing.allocationSize()).isEqualTo(expected);
			retired = next;
		}
		// 80,000 in 480 ms: it lasts a quarter of a second now, and keeps its size.
		now += 480 * MILLIS;
		Block next = block(pacing.allocationSize());
		pacing.installing(retired, next, now);
		assertThat(pacing.allocationSize()).isEqualTo(80_000);
	}

	@Test
	void aBlockThatGrewIsShrunkOnlyOnceItLastsMoreThanASecond() {
		Pacing pacing = new Pacing(10_000, 5_000, 1L << 32);
		pacing.arrived(MILLIS / 10);
		long now = 1;
		Block retired = block(10_000);
		pacing.installing(Block.empty(), retired, now);
		now += 200 * MILLIS;
		Block grown = block(pacing.allocationSize());
		pacing.installing(retired, grown, now);
		assertThat(pacing.allocationSize()).as("a block that lasted 200 ms grows").isEqualTo(20_000);
		// The grown block lasts twice as long, more than 64 answers, but less than a
		// second: it keeps its size, or the node would swing between the two sizes.
		now += 999 * MILLIS;
		Block kept = block(pacing.allocationSize());
		pacing.installing(grown, kept, now);
		assertThat(pacing.allocationSize()).as("a block that lasted 999 ms keeps its size").isEqualTo(20_000);
		now += 1_001 * MILLIS;
		pacing.installing(kept, block(pacing.allocationSize()), now);
		assertThat(pacing.allocationSize()).as("a block that lasted 1,001 ms is halved").isEqualTo(10_000);
	}

	@Test
	void aGrownBlockKeepsTheConfiguredShareAndTheTriggerNeverPassesTheBlock() {
		Pacing pacing = new Pacing(1_000, 500, 1L << 32);
		pacing.arrived(10 * MILLIS);
		Block retired = block(1_000);
		pacing.installing(Block.empty(), retired, 1);
		// A slow stretch: blocks last a second, so the measured need stays small, but
		// blocks grew before.
		Block grown = block(8_000);
		pacing.installing(retired, grown, 1 + 1_000 * MILLIS);
		assertThat(pacing.threshold()).as("half of the block, as configured for 1,000 and 500").isEqualTo(4_000);
		// A fast stretch: the measured need exceeds the block; the next is asked for at
		// once, no earlier.
		Block fast = block(8_000);
		pacing.installing(grown, fast, 1 + 1_001 * MILLIS);
		assertThat(pacing.threshold()).isEqualTo(8_000);
		assertThat(fast.trigger).isZero();
	}

	@Test
	void aGrownBlockTakesAtMostASixteenthOfASecond() {
		Pacing pacing = new Pacing(1_000, 500, 1L << 16);
		pacing.arrived(10 * MILLIS);
		Block retired = block(1_000);
		pacing.installing(Block.empty(), retired, 1);
		for (int i = 1; i <= 10; i++) {
			Block next = block(pacing.allocationSize());
			pacing.installing(retired, next, 1 + i * MILLIS);
			retired = next;
		}
		assertThat(pacing.allocationSize()).isEqualTo((1L << 16) / 16);
	}

	@Test
	void withPrefetchingOffNothingAdapts() {
		Pacing pacing = new Pacing(1_000, 0, 1L << 32);
		pacing.arrived(10 * MILLIS);
		Block retired = block(1_000);
		pacing.installing(Block.empty(), retired, 1);
		Block next = block(1_000);
		pacing.installing(retired, next, 1 + MILLIS);
		assertThat(pacing.allocationSize()).isEqualTo(1_000);
		assertThat(next.trigger).isEqualTo(Block.NO_TRIGGER);
		assertThat(pacing.threshold()).isZero();
	}

	private static Block block(long size) {
		return new Block(0, 0, 0, size);
	}

}
