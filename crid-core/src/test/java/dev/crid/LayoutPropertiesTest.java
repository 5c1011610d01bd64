package dev.crid;

import java.time.DateTimeException;
import java.time.Instant;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Round trips over random layouts, always including the extremes 0/63 and 63/0. Each
 * property runs over cases drawn from a fixed seed, so a failure names its case and
 * reproduces on every run.
 */
class LayoutPropertiesTest {

	private static final long SEED = 0x63_0c21dL;

	private static final long MIN_EPOCH_SECOND = Instant.parse("1970-01-01T00:00:00Z").getEpochSecond();

	private static final long MAX_EPOCH_SECOND = Instant.parse("2100-01-01T00:00:00Z").getEpochSecond();

	@Test
	void encodeThenSplitGivesBackTimestampAndSequence() {
		forEachCase(2000, (random) -> {
			Parts parts = parts(random);
			CridLayout layout = parts.layout();
			long id = layout.encode(parts.timestamp(), parts.sequence());
			assertThat(id).as("%s", parts).isNotNegative();
			assertThat(layout.timestampOf(id)).as("%s", parts).isEqualTo(parts.timestamp());
			assertThat(layout.sequenceOf(id)).as("%s", parts).isEqualTo(parts.sequence());
			assertThat(layout.encode(layout.timestampOf(id), layout.sequenceOf(id))).as("%s", parts).isEqualTo(id);
		});
	}

	@Test
	void parserGivesBackTheInstantWhereInstantCanHoldIt() {
		forEachCase(2000, (random) -> {
			Parts parts = parts(random);
			CridLayout layout = parts.layout();
			long id = layout.encode(parts.timestamp(), parts.sequence());
			Instant expected = instantOrNull(layout.epoch(), parts.timestamp());
			if (expected != null) {
				ParsedId parsed = CridParser.of(layout).parse(id);
				assertThat(parsed).as("%s", parts).isEqualTo(new ParsedId(expected, parts.sequence()));
				assertThat(layout.timestampAt(parsed.timestamp())).as("%s", parts).isEqualTo(parts.timestamp());
			}
			else {
				assertThatIllegalArgumentException().as("%s", parts).isThrownBy(() -> CridParser.of(layout).parse(id));
			}
		});
	}

	@Test
	void everyIdSplitsIntoPartsThatEncodeBackToIt() {
		forEachCase(500, (random) -> {
			int sequenceBits = bits(random);
			long id = random.nextLong(Long.MAX_VALUE) + (random.nextBoolean() ? 1 : 0);
			CridLayout layout = CridLayout.of(CridLayout.DEFAULT_EPOCH, 63 - sequenceBits, sequenceBits);
			long timestamp = layout.timestampOf(id);
			long sequence = layout.sequenceOf(id);
			String description = "id " + id + " with " + layout;
			assertThat(timestamp).as(description).isBetween(0L, layout.maxTimestamp());
			assertThat(sequence).as(description).isBetween(0L, layout.maxSequence());
			assertThat(layout.encode(timestamp, sequence)).as(description).isEqualTo(id);
		});
	}

	@Test
	void encodeRejectsASequenceOnePastTheMaximum() {
		IntStream.rangeClosed(0, 62).forEach((sequenceBits) -> {
			CridLayout layout = CridLayout.of(CridLayout.DEFAULT_EPOCH, 63 - sequenceBits, sequenceBits);
			assertThatIllegalArgumentException().isThrownBy(() -> layout.encode(0, layout.maxSequence() + 1));
			assertThat(layout.maxSequence() + 1).isEqualTo(1L << sequenceBits);
			assertThat(layout.maxTimestamp()).isEqualTo(Long.MAX_VALUE >>> sequenceBits);
		});
	}

	@Test
	void timestampAtFloorsToWholeSecondsSinceTheEpoch() {
		forEachCase(1000, (random) -> {
			Instant epoch = epoch(random);
			long seconds = random.nextLong(4_000_000_001L);
			int nanos = random.nextInt(1_000_000_000);
			CridLayout layout = CridLayout.of(epoch, 33, 30);
			Instant instant = epoch.plusSeconds(seconds).plusNanos(nanos);
			assertThat(layout.timestampAt(instant)).as("%s from %s", instant, epoch).isEqualTo(seconds);
			if (seconds > 0 || nanos > 0) {
				assertThat(layout.timestampAt(instant.minusNanos(1))).as("%s - 1 ns from %s", instant, epoch)
					.isEqualTo((nanos > 0) ? seconds : seconds - 1);
			}
		});
	}

	@Test
	void cridIdPrintsAndParsesBack() {
		forEachCase(1000, (random) -> {
			long value = (random.nextInt(10) == 0) ? Long.MAX_VALUE - random.nextInt(3)
					: random.nextLong(Long.MAX_VALUE);
			CridId id = CridId.of(value);
			assertThat(id.toString()).isEqualTo(Long.toString(value));
			assertThat(CridId.parse(id.toString())).isEqualTo(id);
			assertThat(CridId.parse(id.toString()).value()).isEqualTo(value);
		});
	}

	@Test
	void cridIdRejectsEveryNegativeValueAndItsText() {
		forEachCase(500, (random) -> {
			long value = (random.nextInt(10) == 0) ? Long.MIN_VALUE + random.nextInt(3)
					: -1 - random.nextLong(Long.MAX_VALUE);
			assertThatIllegalArgumentException().isThrownBy(() -> CridId.of(value));
			assertThatIllegalArgumentException().isThrownBy(() -> CridId.parse(Long.toString(value)))
				.withMessageContaining(Long.toString(value));
		});
	}

	@Test
	void extremeLayoutZeroSixtyThree() {
		CridLayout layout = CridLayout.of(CridLayout.DEFAULT_EPOCH, 0, 63);
		for (long sequence : new long[] { 0, 1, Long.MAX_VALUE - 1, Long.MAX_VALUE }) {
			long id = layout.encode(0, sequence);
			assertThat(id).isEqualTo(sequence);
			assertThat(layout.timestampOf(id)).isZero();
			assertThat(layout.sequenceOf(id)).isEqualTo(sequence);
			assertThat(CridParser.of(layout).parse(id)).isEqualTo(new ParsedId(CridLayout.DEFAULT_EPOCH, sequence));
		}
	}

	@Test
	void extremeLayoutSixtyThreeZero() {
		CridLayout layout = CridLayout.of(CridLayout.DEFAULT_EPOCH, 63, 0);
		for (long timestamp : new long[] { 0, 1, 86_400L * 365 * 10_000, Long.MAX_VALUE }) {
			long id = layout.encode(timestamp, 0);
			assertThat(id).isEqualTo(timestamp);
			assertThat(layout.timestampOf(id)).isEqualTo(timestamp);
			assertThat(layout.sequenceOf(id)).isZero();
		}
		assertThat(CridParser.of(layout).parse(86_400L).timestamp())
			.isEqualTo(CridLayout.DEFAULT_EPOCH.plusSeconds(86_400));
	}

	/** Runs a property over {@code cases} cases, each from its own seeded generator. */
	private static void forEachCase(int cases, Consumer<SplittableRandom> property) {
		SplittableRandom seeds = new SplittableRandom(SEED);
		for (int i = 0; i < cases; i++) {
			property.accept(seeds.split());
		}
	}

	/** Sequence bits in [0, 63], one draw in four an extreme. */
	private static int bits(SplittableRandom random) {
		return switch (random.nextInt(8)) {
			case 0 -> 0;
			case 1 -> 63;
			default -> random.nextInt(64);
		};
	}

	private static Parts parts(SplittableRandom random) {
		int sequenceBits = bits(random);
		CridLayout layout = CridLayout.of(epoch(random), 63 - sequenceBits, sequenceBits);
		return new Parts(layout, upTo(random, layout.maxTimestamp()), upTo(random, layout.maxSequence()));
	}

	/** A value in [0, max], the bounds themselves drawn often. */
	private static long upTo(SplittableRandom random, long max) {
		return switch (random.nextInt(6)) {
			case 0 -> 0;
			case 1 -> max;
			default -> (max == Long.MAX_VALUE) ? random.nextLong(Long.MAX_VALUE) : random.nextLong(max + 1);
		};
	}

	private static Instant epoch(SplittableRandom random) {
		return Instant.ofEpochSecond(MIN_EPOCH_SECOND + random.nextLong(MAX_EPOCH_SECOND - MIN_EPOCH_SECOND + 1));
	}

	private static Instant instantOrNull(Instant epoch, long seconds) {
		try {
			return epoch.plusSeconds(seconds);
		}
		catch (DateTimeException | ArithmeticException ex) {
			return null;
		}
	}

	record Parts(CridLayout layout, long timestamp, long sequence) {
	}

}
