package dev.crid;

import java.time.Instant;

import dev.crid.InvalidConfigException.Violation;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link CridLayout}.
 */
class CridLayoutTest {

	private static final Instant EPOCH = CridLayout.DEFAULT_EPOCH;

	@Test
	void defaultLayoutIsTheDocumentedOne() {
		assertThat(CridLayout.DEFAULT.epoch()).isEqualTo(Instant.parse("2026-01-01T00:00:00Z"));
		assertThat(CridLayout.DEFAULT.timestampBits()).isEqualTo(31);
		assertThat(CridLayout.DEFAULT.sequenceBits()).isEqualTo(32);
		assertThat(CridLayout.DEFAULT.maxTimestamp()).isEqualTo(2_147_483_647L);
		assertThat(CridLayout.DEFAULT.maxSequence()).isEqualTo(4_294_967_295L);
		assertThat(CridLayout.DEFAULT).isEqualTo(CridLayout.of(EPOCH, 31, 32))
			.hasSameHashCodeAs(CridLayout.of(EPOCH, 31, 32));
	}

	@ParameterizedTest
	@CsvSource({ "0, 63, 0, 9223372036854775807", "63, 0, 9223372036854775807, 0", "1, 62, 1, 4611686018427387903",
			"62, 1, 4611686018427387903, 1", "31, 32, 2147483647, 4294967295" })
	void limitsAreComputedWithoutWrappingShifts(int timestampBits, int sequenceBits, long maxTimestamp,
			long maxSequence) {
		CridLayout layout = CridLayout.of(EPOCH, timestampBits, sequenceBits);
		assertThat(layout.maxTimestamp()).isEqualTo(maxTimestamp);
		assertThat(layout.maxSequence()).isEqualTo(maxSequence);
		assertThat(layout.encode(maxTimestamp, maxSequence)).isEqualTo(Long.MAX_VALUE);
		assertThat(layout.encode(0, 0)).isZero();
	}

	@Test
	void zeroTimestampBitsKeepEveryIdInTimestampZero() {
		CridLayout layout = CridLayout.of(EPOCH, 0, 63);
		assertThat(layout.timestampOf(Long.MAX_VALUE)).isZero();
		assertThat(layout.sequenceOf(Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE);
		assertThat(layout.timestampAt(EPOCH.plusMillis(999))).isZero();
		assertThatExceptionOfType(TimestampOverflowException.class)
			.isThrownBy(() -> layout.timestampAt(EPOCH.plusSeconds(1)));
		assertThatIllegalArgumentException().isThrownBy(() -> layout.encode(1, 0)).withMessageContaining("[0, 0]");
	}

	@Test
	void zeroSequenceBitsMakeTheIdTheTimestamp() {
		CridLayout layout = CridLayout.of(EPOCH, 63, 0);
		assertThat(layout.encode(12345, 0)).isEqualTo(12345);
		assertThat(layout.timestampOf(Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE);
		assertThat(layout.sequenceOf(Long.MAX_VALUE)).isZero();
		assertThatIllegalArgumentException().isThrownBy(() -> layout.encode(0, 1)).withMessageContaining("sequence 1");
	}

	@ParameterizedTest
	@CsvSource({ "-1, 0", "2147483648, 0", "0, -1", "0, 4294967296", "-9223372036854775808, 0" })
	void encodeRejectsPartsOutOfRange(long timestamp, long sequence) {
		assertThatIllegalArgumentException().isThrownBy(() -> CridLayout.DEFAULT.encode(timestamp, sequence))
			.withMessageContaining("is outside");
	}

	@Test
	void negativeIdsAreRejectedNotDecoded() {
		assertThatIllegalArgumentException().isThrownBy(() -> CridLayout.DEFAULT.timestampOf(-1))
			.withMessageContaining("-1");
		assertThatIllegalArgumentException().isThrownBy(() -> CridLayout.DEFAULT.sequenceOf(Long.MIN_VALUE))
			.withMessageContaining(String.valueOf(Long.MIN_VALUE));
	}

	@Test
	void timestampAtFloorsToWholeSecondsSinceTheEpoch() {
		CridLayout layout = CridLayout.of(Instant.parse("2026-01-01T00:00:00Z"), 31, 32);
		assertThat(layout.timestampAt(Instant.parse("2026-01-01T00:00:00Z"))).isZero();
		assertThat(layout.timestampAt(Instant.parse("2026-01-01T00:00:00.999999999Z"))).isZero();
		assertThat(layout.timestampAt(Instant.parse("2026-01-01T00:00:01Z"))).isOne();
		assertThat(layout.timestampAt(Instant.parse("2026-01-01T00:00:03.100Z"))).isEqualTo(3);
	}

	@Test
	void epochWithAFractionOfASecondIsRejectedNamingTheWholeSecond() {
		// crid for Go drops the fraction; silently counting from it instead would shift
		// every timestamp.
		assertThatExceptionOfType(InvalidConfigException.class)
			.isThrownBy(() -> CridLayout.of(Instant.parse("2026-01-01T00:00:00.600Z"), 31, 32))
			.satisfies((ex) -> assertThat(ex.violations()).extracting(Violation::message)
				.singleElement()
				.asString()
				.contains("2026-01-01T00:00:00.600Z", "whole second", "2026-01-01T00:00:00Z"));
		assertThatExceptionOfType(InvalidConfigException.class)
			.isThrownBy(() -> CridLayout.of(Instant.parse("2026-01-01T00:00:00.000000001Z"), 31, 32));
	}

	@Test
	void lastSecondIsTheEpochPlusTheLargestTimestamp() {
		assertThat(CridLayout.DEFAULT.lastSecond()).isEqualTo(Instant.parse("2094-01-19T03:14:07Z"));
		assertThat(CridLayout.of(EPOCH, 0, 63).lastSecond()).isEqualTo(EPOCH);
		assertThat(CridLayout.of(EPOCH, 63, 0).lastSecond()).isEqualTo(Instant.MAX);
	}

	@Test
	void clockOneNanosecondBeforeTheEpochIsAnError() {
		assertThatExceptionOfType(ClockBeforeEpochException.class)
			.isThrownBy(() -> CridLayout.DEFAULT.timestampAt(EPOCH.minusNanos(1)))
			.isInstanceOf(CridException.class);
	}

	@Test
	void clockPastTheLastSecondOverflows() {
		CridLayout layout = CridLayout.of(EPOCH, 4, 59);
		assertThat(layout.timestampAt(EPOCH.plusSeconds(15).plusMillis(999))).isEqualTo(15);
		assertThatExceptionOfType(TimestampOverflowException.class)
			.isThrownBy(() -> layout.timestampAt(EPOCH.plusSeconds(16)))
			.withMessageContaining("16 s")
			.withMessageContaining("15")
			.isInstanceOf(CridException.class);
		assertThat(CridLayout.DEFAULT.timestampAt(EPOCH.plusSeconds(2_147_483_647L))).isEqualTo(2_147_483_647L);
		assertThatExceptionOfType(TimestampOverflowException.class)
			.isThrownBy(() -> CridLayout.DEFAULT.timestampAt(Instant.parse("2094-01-19T03:14:08Z")));
	}

	@Test
	void timestampAtHandlesTheExtremesOfInstant() {
		CridLayout wide = CridLayout.of(Instant.MIN, 63, 0);
		assertThat(wide.timestampAt(Instant.MAX))
			.isEqualTo(Instant.MAX.getEpochSecond() - Instant.MIN.getEpochSecond());
		assertThatExceptionOfType(ClockBeforeEpochException.class)
			.isThrownBy(() -> CridLayout.DEFAULT.timestampAt(Instant.MIN));
		assertThatExceptionOfType(TimestampOverflowException.class)
			.isThrownBy(() -> CridLayout.DEFAULT.timestampAt(Instant.MAX));
	}

	@Test
	void invalidLayoutListsEveryViolationWithValuesAndRanges() {
		assertThatExceptionOfType(InvalidConfigException.class).isThrownBy(() -> CridLayout.of(null, -1, 65))
			.satisfies((ex) -> assertThat(ex.violations()).extracting(Violation::message)
				.containsExactlyInAnyOrder("epoch is null but must be set",
						"timestampBits is -1 but must be in [0, 63]", "sequenceBits is 65 but must be in [0, 63]",
						"timestampBits + sequenceBits is 64 but must be 63 (-1 + 65)"))
			.withMessageContaining("epoch is null but must be set; timestampBits is -1");
	}

	@Test
	void bitsThatOverflowAnIntWhenAddedAreStillRejected() {
		assertThatExceptionOfType(InvalidConfigException.class)
			.isThrownBy(() -> CridLayout.of(EPOCH, Integer.MIN_VALUE, Integer.MIN_VALUE + 63))
			.satisfies((ex) -> assertThat(ex.violations()).extracting(Violation::message)
				.hasSize(3)
				.anySatisfy((violation) -> assertThat(violation).startsWith("timestampBits + sequenceBits")));
	}

	@Test
	void layoutsWithDifferentEpochsOrSplitsAreNotEqual() {
		assertThat(CridLayout.of(EPOCH, 31, 32)).isNotEqualTo(CridLayout.of(EPOCH.plusSeconds(1), 31, 32))
			.isNotEqualTo(CridLayout.of(EPOCH, 32, 31));
		assertThat(CridLayout.DEFAULT.toString()).contains("2026-01-01T00:00:00Z", "31", "32");
	}

}
