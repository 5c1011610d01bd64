package dev.crid;

import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;

import dev.crid.InvalidConfigException.Violation;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Drives the layout, parser and {@link CridId} from the shared vectors that every crid
 * implementation must agree on.
 */
class TestVectorsTest {

	private static final JsonMapper json = JsonMapper.builder().build();

	@Test
	void vectorFileHasEverySection() {
		assertThat(TestVectors.vectors()).hasSizeGreaterThanOrEqualTo(5);
		assertThat(TestVectors.clock()).hasSizeGreaterThanOrEqualTo(2);
		assertThat(TestVectors.invalidLayouts()).hasSizeGreaterThanOrEqualTo(4);
		assertThat(TestVectors.invalidJson()).hasSizeGreaterThanOrEqualTo(8);
	}

	@ParameterizedTest
	@MethodSource("vectors")
	void encodesTimestampAndSequenceToTheListedId(JsonNode vector) {
		CridLayout layout = layout(vector);
		assertThat(layout.encode(vector.get("timestamp").longValue(), vector.get("sequence").longValue()))
			.isEqualTo(vector.get("id").longValue());
	}

	@ParameterizedTest
	@MethodSource("vectors")
	void splitsTheListedIdIntoTimestampAndSequence(JsonNode vector) {
		CridLayout layout = layout(vector);
		long id = vector.get("id").longValue();
		assertThat(layout.timestampOf(id)).isEqualTo(vector.get("timestamp").longValue());
		assertThat(layout.sequenceOf(id)).isEqualTo(vector.get("sequence").longValue());
	}

	@ParameterizedTest
	@MethodSource("vectors")
	void parsesTheListedIdToInstantAndSequence(JsonNode vector) {
		CridLayout layout = layout(vector);
		long id = vector.get("id").longValue();
		ParsedId expected = new ParsedId(Instant.parse(vector.get("instant").stringValue()),
				vector.get("sequence").longValue());
		assertThat(CridParser.of(layout).parse(id)).isEqualTo(expected);
		assertThat(CridParser.of(layout).parse(CridId.of(id))).isEqualTo(expected);
	}

	@ParameterizedTest
	@MethodSource("vectors")
	void timestampOfTheListedInstantIsTheListedTimestamp(JsonNode vector) {
		CridLayout layout = layout(vector);
		assertThat(layout.timestampAt(Instant.parse(vector.get("instant").stringValue())))
			.isEqualTo(vector.get("timestamp").longValue());
	}

	@ParameterizedTest
	@MethodSource("vectors")
	void jsonFormIsTheDecimalString(JsonNode vector) {
		long id = vector.get("id").longValue();
		JsonNode listed = json.readTree(vector.get("json").stringValue());
		assertThat(listed.isString()).isTrue();
		assertThat(CridId.parse(listed.stringValue())).isEqualTo(CridId.of(id));
		assertThat(json.writeValueAsString(CridId.of(id).toString())).isEqualTo(vector.get("json").stringValue());
	}

	@ParameterizedTest
	@MethodSource("clock")
	void timestampsAreFlooredAndNeverBeforeTheEpoch(JsonNode entry) {
		CridLayout layout = CridLayout.of(Instant.parse(entry.get("epoch").stringValue()),
				CridLayout.DEFAULT_TIMESTAMP_BITS, CridLayout.DEFAULT_SEQUENCE_BITS);
		Instant now = Instant.parse(entry.get("now").stringValue());
		if (entry.has("error")) {
			assertThat(entry.get("error").stringValue()).isEqualTo(ClockBeforeEpochException.class.getSimpleName());
			assertThatExceptionOfType(ClockBeforeEpochException.class).isThrownBy(() -> layout.timestampAt(now))
				.withMessageContaining(now.toString())
				.withMessageContaining(layout.epoch().toString());
		}
		else {
			assertThat(layout.timestampAt(now)).isEqualTo(entry.get("timestamp").longValue());
		}
	}

	@ParameterizedTest
	@MethodSource("clock")
	void nodePassesTheFlooredTimestampToTheRegistry(JsonNode entry) {
		Instant epoch = Instant.parse(entry.get("epoch").stringValue());
		Instant now = Instant.parse(entry.get("now").stringValue());
		RecordingRegistry registry = new RecordingRegistry(new InMemoryRegistry());
		MutableClock clock = new MutableClock(epoch.plusSeconds(10));
		try (CridNode node = CridNode.builder(registry).epoch(epoch).clock(clock).threshold(0).build()) {
			clock.set(now);
			if (entry.has("error")) {
				assertThatExceptionOfType(ClockBeforeEpochException.class).isThrownBy(node::nextId);
				assertThat(registry.calls()).isEmpty();
			}
			else {
				long id = node.nextId();
				assertThat(registry.calls()).extracting(RecordingRegistry.Call::timestamp)
					.containsExactly(entry.get("timestamp").longValue());
				assertThat(node.layout().timestampOf(id)).isEqualTo(entry.get("timestamp").longValue());
			}
		}
	}

	@ParameterizedTest
	@MethodSource("invalidLayouts")
	void rejectsTheListedLayouts(JsonNode entry) {
		int timestampBits = entry.get("timestampBits").intValue();
		int sequenceBits = entry.get("sequenceBits").intValue();
		assertThatExceptionOfType(InvalidConfigException.class)
			.isThrownBy(() -> CridLayout.of(CridLayout.DEFAULT_EPOCH, timestampBits, sequenceBits))
			.satisfies((ex) -> assertThat(ex.violations()).extracting(Violation::message)
				.anySatisfy((violation) -> assertThat(violation).contains("timestampBits + sequenceBits",
						String.valueOf(timestampBits), String.valueOf(sequenceBits), "63")));
		assertThatExceptionOfType(InvalidConfigException.class)
			.isThrownBy(() -> CridNode.builder(new InMemoryRegistry())
				.timestampBits(timestampBits)
				.sequenceBits(sequenceBits)
				.build());
	}

	@ParameterizedTest
	@MethodSource("invalidJson")
	void rejectsTheListedJson(String text) {
		JsonNode node = json.readTree(text);
		if (node.isString()) {
			String content = node.stringValue();
			assertThatIllegalArgumentException().isThrownBy(() -> CridId.parse(content))
				.withMessageContaining("\"" + content + "\"");
		}
		else {
			// The JSON form of an ID is a string: a bare number is rejected by the JSON
			// layer before CridId sees it, and null is no ID at all.
			assertThat(node.isNumber() || node.isNull()).as("JSON %s", text).isTrue();
			if (node.isNull()) {
				assertThatIllegalArgumentException().isThrownBy(() -> CridId.parse(null)).withMessageContaining("null");
			}
		}
	}

	static Stream<JsonNode> vectors() {
		return TestVectors.vectors().stream();
	}

	static Stream<JsonNode> clock() {
		return TestVectors.clock().stream();
	}

	static Stream<JsonNode> invalidLayouts() {
		return TestVectors.invalidLayouts().stream();
	}

	static Stream<Arguments> invalidJson() {
		List<JsonNode> entries = TestVectors.invalidJson();
		return entries.stream().map((entry) -> Arguments.of(entry.stringValue()));
	}

	private static CridLayout layout(JsonNode vector) {
		return CridLayout.of(Instant.parse(vector.get("epoch").stringValue()), vector.get("timestampBits").intValue(),
				vector.get("sequenceBits").intValue());
	}

}
