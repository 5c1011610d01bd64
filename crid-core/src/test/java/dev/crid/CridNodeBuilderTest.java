package dev.crid;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import dev.crid.InvalidConfigException.Violation;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.tuple;

/**
 * Tests for {@link CridNode.Builder}: defaults and the checks in {@code build()}.
 */
class CridNodeBuilderTest {

	private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

	@Test
	void defaultsAreTheDocumentedOnes() {
		assertThat(CridNode.DEFAULT_BLOCK_SIZE).isEqualTo(10_000);
		assertThat(CridNode.DEFAULT_THRESHOLD).isEqualTo(5_000);
		assertThat(CridNode.DEFAULT_ALLOCATION_TIMEOUT).isEqualTo(Duration.ofSeconds(5));
		try (CridNode node = CridNode.builder(new InMemoryRegistry()).build()) {
			assertThat(node.layout()).isEqualTo(CridLayout.DEFAULT);
			assertThat(node.blockSize()).isEqualTo(CridNode.DEFAULT_BLOCK_SIZE);
			assertThat(node.threshold()).isEqualTo(CridNode.DEFAULT_THRESHOLD);
			assertThat(node.isClosed()).isFalse();
			assertThat(node.toString()).contains("blockSize=10000", "threshold=5000", "InMemoryRegistry");
		}
	}

	@Test
	void buildDoesNotCallTheRegistry() {
		RecordingRegistry registry = new RecordingRegistry(new InMemoryRegistry());
		try (CridNode node = CridNode.builder(registry).build()) {
			assertThat(registry.callCount()).isZero();
			assertThat(node.stats().idsIssued()).isZero();
		}
	}

	@Test
	void takesEpochAndBitsSeparatelyOrAsALayout() {
		Instant epoch = Instant.parse("2024-01-01T00:00:00Z");
		Clock clock = Clock.fixed(NOW, java.time.ZoneOffset.UTC);
		try (CridNode node = CridNode.builder(new InMemoryRegistry())
			.epoch(epoch)
			.timestampBits(40)
			.sequenceBits(23)
			.clock(clock)
			.build()) {
			assertThat(node.layout()).isEqualTo(CridLayout.of(epoch, 40, 23));
		}
		try (CridNode node = CridNode.builder(new InMemoryRegistry())
			.layout(CridLayout.of(epoch, 41, 22))
			.clock(clock)
			.build()) {
			assertThat(node.layout()).isEqualTo(CridLayout.of(epoch, 41, 22));
		}
	}

	@Test
	void nullLayoutIsReportedWithTheOtherViolations() {
		assertThatExceptionOfType(InvalidConfigException.class)
			.isThrownBy(() -> CridNode.builder(new InMemoryRegistry()).layout(null).blockSize(0).build())
			.satisfies((ex) -> assertThat(ex.violations()).extracting(Violation::message)
				.containsExactly("layout is null but must be set (or leave it out for the default layout)",
						"blockSize is 0 but must be in [1, 4294967296] (2^sequenceBits with sequenceBits 32)",
						"threshold is 5000 but must not exceed blockSize 0 (a threshold below 1 turns prefetching off)"));
	}

	@Test
	void layoutWhoseLastSecondHasPassedIsRejected() {
		// 10 timestamp bits: 1,023 seconds after the epoch, about 17 minutes.
		Instant epoch = NOW.minusSeconds(1024);
		Clock clock = Clock.fixed(NOW, java.time.ZoneOffset.UTC);
		assertThatExceptionOfType(InvalidConfigException.class)
			.isThrownBy(() -> CridNode.builder(new InMemoryRegistry())
				.epoch(epoch)
				.timestampBits(10)
				.sequenceBits(53)
				.clock(clock)
				.build())
			.satisfies((ex) -> assertThat(ex.violations()).extracting(Violation::message)
				.singleElement()
				.asString()
				.contains("last second is 2026-03-01T11:59:59Z", "the clock reads 2026-03-01T12:00:00Z"));
		Clock lastSecond = Clock.fixed(NOW.minusMillis(1), java.time.ZoneOffset.UTC);
		try (CridNode node = CridNode.builder(new InMemoryRegistry())
			.epoch(epoch)
			.timestampBits(10)
			.sequenceBits(53)
			.clock(lastSecond)
			.build()) {
			assertThat(node.layout().timestampOf(node.nextId())).isEqualTo(1023);
		}
	}

	@Test
	void runwayIsOffByDefaultAndMustBeBetweenZeroAndOneDay() {
		try (CridNode node = CridNode.builder(new InMemoryRegistry()).build()) {
			assertThat(node.runway()).isZero();
		}
		try (CridNode node = CridNode.builder(new InMemoryRegistry()).runway(Duration.ofDays(1)).build()) {
			assertThat(node.runway()).isEqualTo(Duration.ofDays(1));
		}
		for (Duration invalid : new Duration[] { null, Duration.ofSeconds(-1), Duration.ofDays(1).plusNanos(1) }) {
			assertThatExceptionOfType(InvalidConfigException.class)
				.isThrownBy(() -> CridNode.builder(new InMemoryRegistry()).runway(invalid).build())
				.satisfies((ex) -> assertThat(ex.violations()).extracting(Violation::message)
					.singleElement()
					.asString()
					.isEqualTo("runway is " + invalid + " but must be in [PT0S, PT24H] (PT0S for none)"));
		}
	}

	@Test
	void maxClockSkewMustBePositive() {
		assertThat(CridNode.DEFAULT_MAX_CLOCK_SKEW).isEqualTo(Duration.ofMinutes(1));
		try (CridNode node = CridNode.builder(new InMemoryRegistry()).build()) {
			assertThat(node.maxClockSkew()).isEqualTo(CridNode.DEFAULT_MAX_CLOCK_SKEW);
		}
		for (Duration invalid : new Duration[] { null, Duration.ZERO, Duration.ofSeconds(-1) }) {
			assertThatExceptionOfType(InvalidConfigException.class)
				.isThrownBy(() -> CridNode.builder(new InMemoryRegistry()).maxClockSkew(invalid).build())
				.satisfies((ex) -> assertThat(ex.violations()).extracting(Violation::message)
					.singleElement()
					.asString()
					.isEqualTo("maxClockSkew is " + invalid + " but must be positive"));
		}
	}

	@Test
	void reportsEveryViolatedRuleAtOnceWithValuesAndRanges() {
		CridNode.Builder builder = CridNode.builder(null)
			.epoch(NOW.plusSeconds(60))
			.timestampBits(40)
			.sequenceBits(40)
			.blockSize(0)
			.threshold(7)
			.allocationTimeout(Duration.ZERO)
			.clock(Clock.fixed(NOW, java.time.ZoneOffset.UTC));
		assertThatExceptionOfType(InvalidConfigException.class).isThrownBy(builder::build)
			.satisfies((ex) -> assertThat(ex.violations()).extracting(Violation::message)
				.containsExactly("registry is null but must be set",
						"timestampBits + sequenceBits is 80 but must be 63 (40 + 40)",
						"epoch is 2026-03-01T12:01:00Z but must not be in the future (the clock reads 2026-03-01T12:00:00Z)",
						"blockSize is 0 but must be at least 1",
						"threshold is 7 but must not exceed blockSize 0 (a threshold below 1 turns prefetching off)",
						"allocationTimeout is PT0S but must be in (PT0S, PT24H]"))
			.withMessageStartingWith("Invalid crid configuration: registry is null but must be set; ")
			.isInstanceOf(CridException.class);
	}

	@Test
	void violationsCarryTheSettingTheValueAndTheRuleAsValues() {
		CridNode.Builder builder = CridNode.builder(null).timestampBits(40).sequenceBits(40).blockSize(0).threshold(7);
		assertThatExceptionOfType(InvalidConfigException.class).isThrownBy(builder::build)
			.satisfies((ex) -> assertThat(ex.violations())
				.extracting(Violation::setting, Violation::value, Violation::rule)
				.containsExactly(tuple("registry", null, "must be set"),
						tuple(Violation.BIT_SPLIT, 80L, "must be 63 (40 + 40)"),
						tuple("blockSize", 0L, "must be at least 1"), tuple("threshold", 7L,
								"must not exceed blockSize 0 (a threshold below 1 turns prefetching off)")));
	}

	@Test
	void blockSizeMustFitTheSequenceBits() {
		assertThatExceptionOfType(InvalidConfigException.class)
			.isThrownBy(() -> CridNode.builder(new InMemoryRegistry())
				.timestampBits(59)
				.sequenceBits(4)
				.blockSize(17)
				.threshold(0)
				.build())
			.satisfies((ex) -> assertThat(ex.violations()).extracting(Violation::message)
				.containsExactly("blockSize is 17 but must be in [1, 16] (2^sequenceBits with sequenceBits 4)"));
		try (CridNode node = CridNode.builder(new InMemoryRegistry())
			.timestampBits(59)
			.sequenceBits(4)
			.blockSize(16)
			.threshold(16)
			.build()) {
			assertThat(node.blockSize()).isEqualTo(16);
		}
	}

	@Test
	void zeroSequenceBitsAllowOnlyBlocksOfOne() {
		assertThatExceptionOfType(InvalidConfigException.class)
			.isThrownBy(() -> CridNode.builder(new InMemoryRegistry())
				.timestampBits(63)
				.sequenceBits(0)
				.blockSize(2)
				.threshold(1)
				.build())
			.satisfies((ex) -> assertThat(ex.violations()).extracting(Violation::message)
				.singleElement()
				.asString()
				.contains("[1, 1]"));
		try (CridNode node = CridNode.builder(new InMemoryRegistry())
			.timestampBits(63)
			.sequenceBits(0)
			.blockSize(1)
			.threshold(1)
			.build()) {
			assertThat(node.blockSize()).isOne();
		}
	}

	@Test
	void sixtyThreeSequenceBitsAllowTheLargestBlock() {
		// No timestamp bits: the layout holds only the epoch's own second.
		try (CridNode node = CridNode.builder(new InMemoryRegistry())
			.epoch(NOW)
			.timestampBits(0)
			.sequenceBits(63)
			.blockSize(Long.MAX_VALUE)
			.clock(Clock.fixed(NOW.plusMillis(999), java.time.ZoneOffset.UTC))
			.build()) {
			assertThat(node.blockSize()).isEqualTo(Long.MAX_VALUE);
		}
	}

	@Test
	void invalidBitsAndBlockSizeAreBothReported() {
		assertThatExceptionOfType(InvalidConfigException.class)
			.isThrownBy(() -> CridNode.builder(new InMemoryRegistry())
				.timestampBits(-1)
				.sequenceBits(64)
				.blockSize(-5)
				.threshold(-10)
				.build())
			.satisfies((ex) -> assertThat(ex.violations()).extracting(Violation::message)
				.containsExactly("timestampBits is -1 but must be in [0, 63]",
						"sequenceBits is 64 but must be in [0, 63]", "blockSize is -5 but must be at least 1"));
	}

	@Test
	void nullSettingsAreReportedNotThrownAsNullPointers() {
		assertThatExceptionOfType(InvalidConfigException.class).isThrownBy(
				() -> CridNode.builder(new InMemoryRegistry()).epoch(null).clock(null).allocationTimeout(null).build())
			.satisfies((ex) -> assertThat(ex.violations()).extracting(Violation::message)
				.containsExactly("clock is null but must be set", "epoch is null but must be set",
						"allocationTimeout is null but must be in (PT0S, PT24H]"));
	}

	@Test
	void allocationTimeoutIsBoundedByADay() {
		assertThatExceptionOfType(InvalidConfigException.class)
			.isThrownBy(() -> CridNode.builder(new InMemoryRegistry())
				.allocationTimeout(Duration.ofDays(1).plusNanos(1))
				.build())
			.satisfies((ex) -> assertThat(ex.violations()).extracting(Violation::message)
				.singleElement()
				.asString()
				.contains("PT24H0.000000001S"));
		assertThatExceptionOfType(InvalidConfigException.class).isThrownBy(
				() -> CridNode.builder(new InMemoryRegistry()).allocationTimeout(Duration.ofMillis(-1)).build());
		CridNode.builder(new InMemoryRegistry()).allocationTimeout(Duration.ofDays(1)).build().close();
		CridNode.builder(new InMemoryRegistry()).allocationTimeout(Duration.ofNanos(1)).build().close();
	}

	@Test
	void thresholdMayEqualTheBlockSizeOrTurnPrefetchingOff() {
		assertThatExceptionOfType(InvalidConfigException.class)
			.isThrownBy(() -> CridNode.builder(new InMemoryRegistry()).blockSize(100).threshold(101).build())
			.withMessageContaining("threshold is 101 but must not exceed blockSize 100");
		// Equal to the block size: the first ID already asks for the next block.
		RecordingRegistry ahead = new RecordingRegistry(new InMemoryRegistry());
		try (CridNode node = CridNode.builder(ahead).blockSize(100).threshold(100).build()) {
			node.nextId();
			org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> node.stats().nextBlockReady());
			assertThat(node.stats().prefetchAllocations().successes()).isOne();
		}
		// Below 1: never ahead of need; each block is reserved by the caller that found
		// the last one used up.
		for (long off : new long[] { 0, -1 }) {
			RecordingRegistry registry = new RecordingRegistry(new InMemoryRegistry());
			try (CridNode node = CridNode.builder(registry).blockSize(100).threshold(off).build()) {
				for (int i = 0; i < 250; i++) {
					node.nextId();
				}
				CridStats stats = node.stats();
				assertThat(stats.prefetchAllocations().count()).as("threshold %d", off).isZero();
				assertThat(stats.synchronousAllocations().successes()).as("threshold %d", off).isEqualTo(3);
				assertThat(stats.nextBlockReady()).isFalse();
				assertThat(registry.callCount()).isEqualTo(3);
			}
		}
	}

	@Test
	void epochEqualToTheClockIsAllowed() {
		try (CridNode node = CridNode.builder(new InMemoryRegistry())
			.epoch(NOW)
			.clock(Clock.fixed(NOW, java.time.ZoneOffset.UTC))
			.build()) {
			assertThat(node.layout().timestampOf(node.nextId())).isZero();
		}
	}

}
