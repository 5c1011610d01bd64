package dev.crid.autoconfigure.jackson;

import dev.crid.CridId;
import dev.crid.jackson.CridJacksonModule;
import dev.crid.autoconfigure.CridConfigurationException;
import dev.crid.format.IdFormat;
import dev.crid.hibernate.Crid;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * {@code crid.id-format}: {@link CridId} values and {@code @Crid} properties travel as
 * JSON strings in the configured form, and strings are read in that form only, never
 * guessed to be the other.
 */
class CridBase32JsonTest {

	/** 2147483648007: the shared vector (second 500, sequence 7). */
	private static final CridId VECTOR = CridId.of(2147483648007L);

	private final JsonMapper base32 = JsonMapper.builder()
		.addModule(new CridJacksonModule(true, IdFormat.BASE32))
		.build();

	private final JsonMapper decimal = JsonMapper.builder()
		.addModule(new CridJacksonModule(true, IdFormat.DECIMAL))
		.build();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(JacksonAutoConfiguration.class, CridJacksonAutoConfiguration.class));

	@Test
	void writesAndReadsACridIdInBase32() {
		assertThat(this.base32.writeValueAsString(VECTOR)).isEqualTo("\"00001YG000007\"");
		assertThat(this.base32.writeValueAsString(CridId.of(Long.MAX_VALUE))).isEqualTo("\"7ZZZZZZZZZZZZ\"");
		assertThat(this.base32.readValue("\"00001YG000007\"", CridId.class)).isEqualTo(VECTOR);
		assertThat(this.base32.readValue("{\"id\":\"00001YG000007\"}", Holder.class).id()).isEqualTo(VECTOR);
	}

	@Test
	void readsWhatPeopleCopyByHand() {
		for (String text : new String[] { "00001yg000007", "0000-1YG0-0000-7", "OOOO1YGOOOOO7", "1YG000007" }) {
			assertThat(this.base32.readValue("\"" + text + "\"", CridId.class)).as(text).isEqualTo(VECTOR);
		}
		assertThat(this.base32.readValue("\"OOOOOOOOOOOOI\"", CridId.class)).isEqualTo(CridId.of(1));
		assertThat(this.base32.readValue("\"000000000001L\"", CridId.class)).isEqualTo(CridId.of(33));
	}

	@Test
	void neverGuessesBetweenTheForms() {
		// Digits only: an ID in both forms, and a different one in each.
		assertThat(this.base32.readValue("\"0000000000010\"", CridId.class)).isEqualTo(CridId.of(32));
		assertThat(this.decimal.readValue("\"0000000000010\"", CridId.class)).isEqualTo(CridId.of(10));
		assertThat(this.base32.readValue("{\"id\":\"0000000000010\"}", OnRecord.class).id()).isEqualTo(32);
		assertThat(this.decimal.readValue("{\"id\":\"0000000000010\"}", OnRecord.class).id()).isEqualTo(10);
		assertThatExceptionOfType(DatabindException.class)
			.isThrownBy(() -> this.decimal.readValue("\"00001YG000007\"", CridId.class))
			.withMessageContaining("Invalid crid ID \"00001YG000007\"");
	}

	@ParameterizedTest
	@ValueSource(
			strings = { "\"2147483648007000\"", "\"8000000000000\"", "\"00001YG00000U\"", "\"\"", "\" 1\"", "\"+1\"" })
	void rejectsAStringThatIsNoBase32IdQuotingItAndSayingWhy(String json) {
		assertThatExceptionOfType(DatabindException.class).as(json)
			.isThrownBy(() -> this.base32.readValue(json, CridId.class))
			.withMessageContaining("Invalid base32 crid ID " + json)
			.withMessageContaining("it has ");
		assertThatExceptionOfType(DatabindException.class).as(json)
			.isThrownBy(() -> this.base32.readValue("{\"id\":" + json + "}", OnRecord.class))
			.withMessageContaining("Invalid base32 crid ID " + json);
	}

	@Test
	void rejectsANumberOrNullForACridIdNamingTheForm() {
		assertThatExceptionOfType(DatabindException.class).isThrownBy(() -> this.base32.readValue("42", CridId.class))
			.withMessageContaining("expected a JSON string of a base32 ID from 0 to 7ZZZZZZZZZZZZ")
			.withMessageContaining("\"0000004000000\"");
		assertThatExceptionOfType(DatabindException.class)
			.isThrownBy(() -> this.base32.readValue("{\"id\":null}", Holder.class))
			.withMessageContaining("Invalid crid ID null: expected a JSON string of a base32 ID");
	}

	@Test
	void writesACridPropertyAsABase32StringAndReadsItFromOneOrFromANumber() {
		assertThat(this.base32.writeValueAsString(new OnRecord(VECTOR.value(), 7L)))
			.isEqualTo("{\"id\":\"00001YG000007\",\"plain\":7}");
		assertThat(this.base32.readValue("{\"id\":\"00001yg000007\"}", OnRecord.class).id()).isEqualTo(VECTOR.value());
		// A JSON number is a number in either form: base32 is a form of text.
		assertThat(this.base32.readValue("{\"id\":2147483648007}", OnRecord.class).id()).isEqualTo(VECTOR.value());
		assertThatExceptionOfType(DatabindException.class)
			.isThrownBy(() -> this.base32.readValue("{\"id\":-1}", OnRecord.class))
			.withMessageContaining("Invalid crid ID -1: expected a base32 ID")
			.withMessageContaining(
					"as a JSON string (\"0000004000000\"), or a JSON number from 0 to " + Long.MAX_VALUE);
	}

	@Test
	void roundTripsEveryKindOfIdInBothForms() {
		Both value = new Both(VECTOR, VECTOR.value(), Long.MAX_VALUE);
		for (JsonMapper mapper : new JsonMapper[] { this.base32, this.decimal }) {
			assertThat(mapper.readValue(mapper.writeValueAsString(value), Both.class)).isEqualTo(value);
		}
		assertThat(this.decimal.writeValueAsString(value))
			.isEqualTo("{\"id\":\"2147483648007\",\"value\":\"2147483648007\",\"boxed\":\"9223372036854775807\"}");
		assertThat(this.base32.writeValueAsString(value))
			.isEqualTo("{\"id\":\"00001YG000007\",\"value\":\"00001YG000007\",\"boxed\":\"7ZZZZZZZZZZZZ\"}");
	}

	@Test
	void refusesBase32WithCridPropertiesAsNumbers() {
		assertThatIllegalArgumentException().isThrownBy(() -> new CridJacksonModule(false, IdFormat.BASE32))
			.withMessageContaining("Base32 IDs are JSON strings");
	}

	@Test
	void bootsJsonMapperFollowsTheIdFormatProperty() {
		this.runner.withPropertyValues("crid.id-format=base32").run((context) -> {
			JsonMapper mapper = context.getBean(JsonMapper.class);
			assertThat(mapper.writeValueAsString(new Both(VECTOR, 32L, 1L)))
				.isEqualTo("{\"id\":\"00001YG000007\",\"value\":\"0000000000010\",\"boxed\":\"0000000000001\"}");
			assertThat(mapper.readValue("\"0000000000010\"", CridId.class)).isEqualTo(CridId.of(32));
		});
		this.runner.withPropertyValues("crid.id-format=DECIMAL")
			.run((context) -> assertThat(context.getBean(JsonMapper.class).writeValueAsString(VECTOR))
				.isEqualTo("\"2147483648007\""));
	}

	@Test
	void base32WithIdsAsNumbersStopsStartUpNamingBothProperties() {
		this.runner.withPropertyValues("crid.id-format=base32", "crid.jackson.ids-as-strings=false")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.isInstanceOf(CridConfigurationException.class)
				.satisfies((failure) -> {
					CridConfigurationException ex = (CridConfigurationException) failure;
					assertThat(ex.description()).contains("Property: crid.id-format", "Value: \"base32\"",
							"crid.jackson.ids-as-strings=false");
					assertThat(ex.action()).contains("crid.id-format=decimal");
				}));
		this.runner.withPropertyValues("crid.id-format=decimal", "crid.jackson.ids-as-strings=false")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	record Holder(CridId id) {
	}

	record OnRecord(@Crid long id, Long plain) {
	}

	record Both(CridId id, @Crid long value, @Crid Long boxed) {
	}

}
