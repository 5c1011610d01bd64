package dev.crid.autoconfigure.jackson;

import dev.crid.CridId;
import dev.crid.jackson.CridJacksonModule;
import dev.crid.autoconfigure.jpa.Ticket;
import dev.crid.hibernate.Crid;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.annotation.JsonSerialize;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.ser.std.ToStringSerializerBase;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@code long} and {@link Long} properties annotated {@link Crid} go out as JSON strings
 * and come in from strings or numbers, through {@link CridJacksonModule};
 * {@code crid.jackson.ids-as-strings=false} turns that off.
 */
class CridPropertyJsonTest {

	/** Above 2^53: a JavaScript number would round it. */
	private static final long BIG = 9_007_199_254_740_993L;

	private final JsonMapper mapper = JsonMapper.builder().addModule(new CridJacksonModule()).build();

	@Test
	void writesTheCridIdOfAJpaEntityAsAStringAndReadsItBack() {
		Ticket ticket = this.mapper.readValue("{\"id\":\"9007199254740993\"}", Ticket.class);
		assertThat(ticket.getId()).isEqualTo(BIG);
		assertThat(this.mapper.writeValueAsString(ticket)).contains("\"id\":\"9007199254740993\"");
	}

	@Test
	void writesEveryKindOfCridPropertyAsAString() {
		assertThat(this.mapper.writeValueAsString(new OnFields(BIG, BIG, 7L)))
			.isEqualTo("{\"id\":\"9007199254740993\",\"primitive\":\"9007199254740993\",\"plain\":7}");
		assertThat(this.mapper.writeValueAsString(new OnRecord(BIG, "x")))
			.isEqualTo("{\"id\":\"9007199254740993\",\"name\":\"x\"}");
		OnAccessors accessors = new OnAccessors();
		accessors.setId(BIG);
		assertThat(this.mapper.writeValueAsString(accessors)).isEqualTo("{\"id\":\"9007199254740993\"}");
		assertThat(this.mapper.writeValueAsString(new OnFields(null, 0, null)))
			.isEqualTo("{\"id\":null,\"primitive\":\"0\",\"plain\":null}");
	}

	@Test
	void readsACridPropertyFromAStringOrANumber() {
		assertThat(
				this.mapper.readValue("{\"id\":\"9007199254740993\",\"primitive\":9007199254740993}", OnFields.class))
			.isEqualTo(new OnFields(BIG, BIG, null));
		assertThat(this.mapper.readValue("{\"id\":9223372036854775807,\"name\":\"x\"}", OnRecord.class).id())
			.isEqualTo(Long.MAX_VALUE);
		assertThat(this.mapper.readValue("{\"id\":\"42\"}", OnAccessors.class).getId()).isEqualTo(42L);
		assertThat(this.mapper.readValue("{\"id\":null,\"primitive\":0}", OnFields.class).id()).isNull();
	}

	@ParameterizedTest
	@ValueSource(strings = { "\"-1\"", "-1", "\"12a\"", "\" 12\"", "\"\"", "1.5", "9223372036854775808",
			"\"9223372036854775808\"", "true", "{}", "[]" })
	void rejectsWhatIsNotANonNegativeDecimalLongQuotingIt(String value) {
		assertThatExceptionOfType(DatabindException.class).as(value)
			.isThrownBy(() -> this.mapper.readValue("{\"id\":" + value + "}", OnFields.class))
			.withMessageContaining("Invalid crid ID")
			.withMessageContaining("from 0 to " + Long.MAX_VALUE);
	}

	@Test
	void rejectsNullForAPrimitive() {
		assertThatExceptionOfType(DatabindException.class)
			.isThrownBy(() -> this.mapper.readValue("{\"primitive\":null}", OnFields.class))
			.withMessageContaining("a long property cannot be null");
	}

	@Test
	void leavesAnExplicitJacksonAnnotationInCharge() {
		assertThat(this.mapper.writeValueAsString(new Overridden(5L))).isEqualTo("{\"id\":\"5!\"}");
	}

	@Test
	void writesNumbersWhenSwitchedOffButKeepsCridIdAString() {
		JsonMapper numbers = JsonMapper.builder().addModule(new CridJacksonModule(false)).build();
		assertThat(numbers.writeValueAsString(new OnFields(BIG, 1, null)))
			.isEqualTo("{\"id\":9007199254740993,\"primitive\":1,\"plain\":null}");
		assertThat(numbers.writeValueAsString(CridId.of(BIG))).isEqualTo("\"9007199254740993\"");
	}

	@Test
	void followsTheIdsAsStringsPropertyInBootsJsonMapper() {
		ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(
				AutoConfigurations.of(JacksonAutoConfiguration.class, CridJacksonAutoConfiguration.class));
		runner.run((context) -> assertThat(context.getBean(JsonMapper.class).writeValueAsString(new OnRecord(BIG, "x")))
			.isEqualTo("{\"id\":\"9007199254740993\",\"name\":\"x\"}"));
		runner.withPropertyValues("crid.jackson.ids-as-strings=false").run((context) -> {
			JsonMapper mapper = context.getBean(JsonMapper.class);
			assertThat(mapper.writeValueAsString(new OnRecord(BIG, "x")))
				.isEqualTo("{\"id\":9007199254740993,\"name\":\"x\"}");
			assertThat(mapper.writeValueAsString(CridId.of(BIG))).isEqualTo("\"9007199254740993\"");
		});
	}

	record OnFields(@Crid Long id, @Crid long primitive, Long plain) {
	}

	record OnRecord(@Crid long id, String name) {
	}

	static class OnAccessors {

		private Long id;

		@Crid
		public Long getId() {
			return this.id;
		}

		@Crid
		public void setId(Long id) {
			this.id = id;
		}

	}

	record Overridden(@Crid @JsonSerialize(using = Exclaiming.class) Long id) {
	}

	static class Exclaiming extends ToStringSerializerBase {

		Exclaiming() {
			super(Long.class);
		}

		@Override
		public String valueToString(Object value) {
			return value + "!";
		}

	}

}
