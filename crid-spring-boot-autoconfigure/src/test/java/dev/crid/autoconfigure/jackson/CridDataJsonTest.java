package dev.crid.autoconfigure.jackson;

import dev.crid.data.Crid;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Spring Data aggregates' {@code @dev.crid.data.Crid} IDs, {@code Long} or
 * {@code String}, travel as JSON strings in the form {@code crid.id-format} chooses, and
 * are read back in that form, through the JSON mapper Spring Boot's auto-configuration
 * makes.
 */
class CridDataJsonTest {

	/** Above 2^53: a JavaScript number would round it. */
	private static final long BIG = 9_007_199_254_740_993L;

	/** 2147483648007: the shared vector (second 500, sequence 7), 00001YG000007. */
	private static final long VECTOR = 2_147_483_648_007L;

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(JacksonAutoConfiguration.class, CridJacksonAutoConfiguration.class));

	@Test
	void writesALongIdAsADecimalStringAndReadsItBack() {
		this.runner.run((context) -> {
			JsonMapper mapper = context.getBean(JsonMapper.class);
			String json = mapper.writeValueAsString(new Note(BIG, "hello"));
			assertThat(json).isEqualTo("{\"id\":\"9007199254740993\",\"text\":\"hello\"}");
			assertThat(mapper.readValue(json, Note.class)).isEqualTo(new Note(BIG, "hello"));
			assertThat(mapper.readValue("{\"id\":9007199254740993,\"text\":\"x\"}", Note.class).id()).isEqualTo(BIG);
			assertThat(mapper.readValue("{\"text\":\"new\"}", Note.class).id()).isNull();
		});
	}

	@Test
	void writesALongIdAsABase32StringAndReadsItBackWithTheIdFormatProperty() {
		this.runner.withPropertyValues("crid.id-format=base32").run((context) -> {
			JsonMapper mapper = context.getBean(JsonMapper.class);
			String json = mapper.writeValueAsString(new Note(VECTOR, "hello"));
			assertThat(json).isEqualTo("{\"id\":\"00001YG000007\",\"text\":\"hello\"}");
			assertThat(mapper.readValue(json, Note.class)).isEqualTo(new Note(VECTOR, "hello"));
			// Never guessed to be decimal.
			assertThat(mapper.readValue("{\"id\":\"0000000000010\",\"text\":\"x\"}", Note.class).id()).isEqualTo(32L);
		});
	}

	@Test
	void writesAStringIdInEitherFormAndReadsItBackIntoItsDecimalText() {
		Memo memo = new Memo(Long.toString(VECTOR), "hello");
		this.runner.run((context) -> {
			JsonMapper mapper = context.getBean(JsonMapper.class);
			String json = mapper.writeValueAsString(memo);
			assertThat(json).isEqualTo("{\"id\":\"2147483648007\",\"text\":\"hello\"}");
			assertThat(mapper.readValue(json, Memo.class)).isEqualTo(memo);
		});
		this.runner.withPropertyValues("crid.id-format=base32").run((context) -> {
			JsonMapper mapper = context.getBean(JsonMapper.class);
			String json = mapper.writeValueAsString(memo);
			assertThat(json).isEqualTo("{\"id\":\"00001YG000007\",\"text\":\"hello\"}");
			assertThat(mapper.readValue(json, Memo.class)).isEqualTo(memo);
			assertThat(mapper.readValue("{\"id\":\"0000-1yg0-0000-7\",\"text\":\"hello\"}", Memo.class))
				.isEqualTo(memo);
		});
	}

	@ParameterizedTest
	@ValueSource(strings = { "\"-1\"", "\"12a\"", "\"\"", "\"9223372036854775808\"", "-1", "1.5", "true" })
	void rejectsAStringIdThatIsNoIdInTheFormQuotingIt(String value) {
		this.runner.run((context) -> assertThatExceptionOfType(DatabindException.class).as(value)
			.isThrownBy(() -> context.getBean(JsonMapper.class).readValue("{\"id\":" + value + "}", Memo.class))
			.withMessageContaining("Invalid crid ID"));
	}

	@Test
	void idsAsNumbersLeavesALongIdANumber() {
		this.runner.withPropertyValues("crid.jackson.ids-as-strings=false")
			.run((context) -> assertThat(context.getBean(JsonMapper.class).writeValueAsString(new Note(BIG, "x")))
				.isEqualTo("{\"id\":9007199254740993,\"text\":\"x\"}"));
	}

	@Table("note")
	record Note(@Id @Crid Long id, String text) {
	}

	@Table("memo")
	record Memo(@Id @Crid String id, String text) {
	}

}
