package dev.crid;

import java.time.DateTimeException;
import java.time.Instant;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.statistics.Statistics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Round trips over random layouts, including the extremes 0/63 and 63/0.
 */
class LayoutPropertiesTest {

	private static final long MIN_EPOCH_SECOND = Instant.parse("1970-01-01T00:00:00Z").getEpochSecond();

	private static final long MAX_EPOCH_SECOND = Instant.parse("2100-01-01T00:00:00Z").getEpochSecond();

	@Property(tries = 2000)
	void encodeThenSplitGivesBackTimestampAndSequence(@ForAll("parts") Parts parts) {
		CridLayout layout = parts.layout();
		long id = layout.encode(parts.timestamp(), parts.sequence());
		assertThat(id).isNotNegative();
		assertThat(layout.timestampOf(id)).isEqualTo(parts.timestamp());
		assertThat(layout.sequenceOf(id)).isEqualTo(parts.sequence());
		assertThat(layout.encode(layout.timestampOf(id), layout.sequenceOf(id))).isEqualTo(id);
		Statistics.label("sequenceBits").collect(bucket(layout.sequenceBits()));
	}

	@Property(tries = 2000)
	void parserGivesBackTheInstantWhereInstantCanHoldIt(@ForAll("parts") Parts parts) {
		CridLayout layout = parts.layout();
		long id = layout.encode(parts.timestamp(), parts.sequence());
		Instant expected = instantOrNull(layout.epoch(), parts.timestamp());
		if (expected != null) {
			ParsedId parsed = CridParser.of(layout).parse(id);
			assertThat(parsed).isEqualTo(new ParsedId(expected, parts.sequence()));
			assertThat(layout.timestampAt(parsed.timestamp())).isEqualTo(parts.timestamp());
			Statistics.label("instant").collect("in range");
		}
		else {
			assertThatIllegalArgumentException().isThrownBy(() -> CridParser.of(layout).parse(id));
			Statistics.label("instant").collect("beyond Instant");
		}
	}

	@Property(tries = 500)
	void everyIdSplitsIntoPartsThatEncodeBackToIt(@ForAll @IntRange(min = 0, max = 63) int sequenceBits,
			@ForAll @LongRange(min = 0, max = Long.MAX_VALUE) long id) {
		CridLayout layout = CridLayout.of(CridLayout.DEFAULT_EPOCH, 63 - sequenceBits, sequenceBits);
		long timestamp = layout.timestampOf(id);
		long sequence = layout.sequenceOf(id);
		assertThat(timestamp).isBetween(0L, layout.maxTimestamp());
		assertThat(sequence).isBetween(0L, layout.maxSequence());
		assertThat(layout.encode(timestamp, sequence)).isEqualTo(id);
	}

	@Property(tries = 500)
	void encodeRejectsASequenceOnePastTheMaximum(@ForAll @IntRange(min = 0, max = 62) int sequenceBits) {
		CridLayout layout = CridLayout.of(CridLayout.DEFAULT_EPOCH, 63 - sequenceBits, sequenceBits);
		assertThatIllegalArgumentException().isThrownBy(() -> layout.encode(0, layout.maxSequence() + 1));
		assertThat(layout.maxSequence() + 1).isEqualTo(1L << sequenceBits);
		assertThat(layout.maxTimestamp()).isEqualTo(Long.MAX_VALUE >>> sequenceBits);
	}

	@Property(tries = 1000)
	void timestampAtFloorsToWholeSecondsSinceTheEpoch(@ForAll("epochs") Instant epoch,
			@ForAll @LongRange(min = 0, max = 4_000_000_000L) long seconds,
			@ForAll @IntRange(min = 0, max = 999_999_999) int nanos) {
		CridLayout layout = CridLayout.of(epoch, 33, 30);
		assertThat(layout.timestampAt(epoch.plusSeconds(seconds).plusNanos(nanos))).isEqualTo(seconds);
		if (seconds > 0 || nanos > 0) {
			assertThat(layout.timestampAt(epoch.plusSeconds(seconds).plusNanos(nanos).minusNanos(1)))
				.isEqualTo((nanos > 0) ? seconds : seconds - 1);
		}
	}

	@Property(tries = 1000)
	void cridIdPrintsAndParsesBack(@ForAll @LongRange(min = 0, max = Long.MAX_VALUE) long value) {
		CridId id = CridId.of(value);
		assertThat(id.toString()).isEqualTo(Long.toString(value));
		assertThat(CridId.parse(id.toString())).isEqualTo(id);
		assertThat(CridId.parse(id.toString()).value()).isEqualTo(value);
	}

	@Property(tries = 500)
	void cridIdRejectsEveryNegativeValueAndItsText(@ForAll @LongRange(min = Long.MIN_VALUE, max = -1) long value) {
		assertThatIllegalArgumentException().isThrownBy(() -> CridId.of(value));
		assertThatIllegalArgumentException().isThrownBy(() -> CridId.parse(Long.toString(value)))
			.withMessageContaining(Long.toString(value));
	}

	@Example
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

	@Example
	void extremeLayoutSixtyThreeZero() {
		CridLayout layout = CridLayout.of(CridLayout.DEFAULT_EPOCH, 63, 0);
		for (long timestamp : new long[] { 0, 1, 86_400L * 365 * 10_000, Long.MAX_VALUE }) {
			long id = layout.encode(timestamp, 0);
			assertThat(id).isEqualTo(timestamp);
			assertThat(layout.timestampOf(id)).isEqualTo(timestamp);
			assertThat(layout.sequenceOf(id)).isZero();
		}
		assertThat(CridParser.of(layout).parse(86_400L).timestamp()).isEqualTo(CridLayout.DEFAULT_EPOCH.plusSeconds(86_400));
	}

	@Provide
	Arbitrary<Parts> parts() {
		Arbitrary<Integer> sequenceBits = Arbitraries.integers().between(0, 63).edgeCases((edges) -> edges.includeOnly(0, 63));
		return Combinators.combine(epochs(), sequenceBits).flatAs((epoch, bits) -> {
			CridLayout layout = CridLayout.of(epoch, 63 - bits, bits);
			return Combinators.combine(Arbitraries.longs().between(0, layout.maxTimestamp()),
					Arbitraries.longs().between(0, layout.maxSequence()))
				.as((timestamp, sequence) -> new Parts(layout, timestamp, sequence));
		});
	}

	@Provide
	Arbitrary<Instant> epochs() {
		return Combinators.combine(Arbitraries.longs().between(MIN_EPOCH_SECOND, MAX_EPOCH_SECOND),
				Arbitraries.integers().between(0, 999_999_999))
			.as((second, nanos) -> Instant.ofEpochSecond(second, nanos));
	}

	private static Instant instantOrNull(Instant epoch, long seconds) {
		try {
			return epoch.plusSeconds(seconds);
		}
		catch (DateTimeException | ArithmeticException ex) {
			return null;
		}
	}

	private static String bucket(int sequenceBits) {
		return (sequenceBits == 0 || sequenceBits == 63) ? "extreme " + sequenceBits : "between";
	}

	record Parts(CridLayout layout, long timestamp, long sequence) {
	}

}
