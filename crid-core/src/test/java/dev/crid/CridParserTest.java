package dev.crid;

import java.time.Instant;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

/**
 * Tests for {@link CridParser}.
 */
class CridParserTest {

	@Test
	void parsesIntoTheSecondAndSequence() {
		CridLayout layout = CridLayout.of(Instant.parse("2020-01-01T00:00:00Z"), 41, 22);
		CridParser parser = CridParser.of(layout);
		assertThat(parser.layout()).isSameAs(layout);
		assertThat(parser.parse(layout.encode(3, 17)))
			.isEqualTo(new ParsedId(Instant.parse("2020-01-01T00:00:03Z"), 17));
		assertThat(parser.parse(CridId.of(layout.encode(3, 17)))).isEqualTo(parser.parse(layout.encode(3, 17)));
	}

	@Test
	void givesTheStartOfTheSecondCountedFromTheEpoch() {
		CridLayout layout = CridLayout.of(Instant.parse("2020-06-01T12:00:00Z"), 31, 32);
		assertThat(CridParser.of(layout).parse(layout.encode(2, 0)).timestamp())
			.isEqualTo(Instant.parse("2020-06-01T12:00:02Z"));
	}

	@Test
	void rejectsNegativeIds() {
		assertThatIllegalArgumentException().isThrownBy(() -> CridParser.of(CridLayout.DEFAULT).parse(-42))
			.withMessageContaining("-42");
	}

	@Test
	void rejectsTimestampsBeyondWhatInstantHolds() {
		CridParser parser = CridParser.of(CridLayout.of(CridLayout.DEFAULT_EPOCH, 63, 0));
		assertThat(parser.parse(1_000_000_000L).timestamp())
			.isEqualTo(CridLayout.DEFAULT_EPOCH.plusSeconds(1_000_000_000L));
		assertThatIllegalArgumentException().isThrownBy(() -> parser.parse(Long.MAX_VALUE))
			.withMessageContaining(String.valueOf(Long.MAX_VALUE))
			.withMessageContaining("beyond the range of Instant");
	}

	@Test
	void nodeParserUsesTheNodeLayout() {
		CridLayout layout = CridLayout.of(Instant.parse("2025-06-01T00:00:00Z"), 40, 23);
		try (CridNode node = CridNode.builder(new InMemoryRegistry()).layout(layout).build()) {
			assertThat(node.parser().layout()).isEqualTo(layout);
			assertThat(node.layout()).isEqualTo(layout);
		}
	}

	@Test
	void requiresALayout() {
		assertThatNullPointerException().isThrownBy(() -> CridParser.of(null)).withMessageContaining("layout");
	}

}
