package dev.crid.autoconfigure.jackson;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

import dev.crid.CridId;
import dev.crid.jackson.CridJacksonModule;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.JacksonModule;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link CridJacksonModule} against the shared test vectors ({@code ids.json},
 * copied into the test resources), and for its auto-configuration.
 */
class CridJacksonModuleTest {

	private final JsonMapper mapper = JsonMapper.builder().addModule(new CridJacksonModule()).build();

	@Test
	void writesAndReadsEveryVectorAsADecimalString() throws IOException {
		List<JsonNode> vectors = vectors("vectors");
		assertThat(vectors).isNotEmpty();
		for (JsonNode vector : vectors) {
			CridId id = CridId.of(vector.get("id").asLong());
			String json = vector.get("json").asString();
			assertThat(this.mapper.writeValueAsString(id)).isEqualTo(json);
			assertThat(this.mapper.readValue(json, CridId.class)).isEqualTo(id);
		}
	}

	@Test
	void rejectsEveryInvalidInputWithAMessageQuotingIt() throws IOException {
		List<JsonNode> invalid = vectors("invalidJson");
		assertThat(invalid).hasSizeGreaterThanOrEqualTo(8);
		for (JsonNode input : invalid) {
			String json = input.asString();
			assertThatExceptionOfType(DatabindException.class).as(json)
				.isThrownBy(() -> this.mapper.readValue(json, CridId.class))
				.withMessageContaining("Invalid crid ID")
				.withMessageContaining("decimal number from 0 to " + Long.MAX_VALUE);
		}
	}

	@Test
	void quotesTheBadStringInTheMessage() {
		assertThatExceptionOfType(DatabindException.class)
			.isThrownBy(() -> this.mapper.readValue("{\"id\":\"12a\"}", Holder.class))
			.withMessageContaining("\"12a\"")
			.withMessageContaining("id");
	}

	@Test
	void writesIdsInsideObjectsAsStrings() {
		assertThat(this.mapper.writeValueAsString(new Holder(CridId.of(Long.MAX_VALUE))))
			.isEqualTo("{\"id\":\"9223372036854775807\"}");
		assertThat(this.mapper.readValue("{\"id\":\"42\"}", Holder.class).id()).isEqualTo(CridId.of(42));
	}

	@Test
	void leavesAnAbsentPropertyNull() {
		assertThat(this.mapper.readValue("{}", Holder.class).id()).isNull();
	}

	@Test
	void isAddedToBootsJsonMapper() {
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(JacksonAutoConfiguration.class, CridJacksonAutoConfiguration.class))
			.run((context) -> {
				assertThat(context).hasSingleBean(CridJacksonModule.class);
				JsonMapper mapper = context.getBean(JsonMapper.class);
				assertThat(mapper.writeValueAsString(CridId.of(4294967296L))).isEqualTo("\"4294967296\"");
				assertThat(mapper.readValue("\"7\"", CridId.class)).isEqualTo(CridId.of(7));
			});
	}

	@Test
	void backsOffWithoutJackson() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(CridJacksonAutoConfiguration.class))
			.withClassLoader(new FilteredClassLoader(JacksonModule.class))
			.run((context) -> assertThat(context).doesNotHaveBean(CridJacksonModule.class));
	}

	@Test
	void backsOffWhenUserDefinesTheModule() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(CridJacksonAutoConfiguration.class))
			.withBean("userModule", CridJacksonModule.class)
			.run((context) -> assertThat(context).hasSingleBean(CridJacksonModule.class).hasBean("userModule"));
	}

	private List<JsonNode> vectors(String name) throws IOException {
		try (InputStream in = getClass().getResourceAsStream("/ids.json")) {
			assertThat(in).as("ids.json in the test resources").isNotNull();
			List<JsonNode> nodes = new ArrayList<>();
			this.mapper.readTree(in).get(name).forEach(nodes::add);
			return nodes;
		}
	}

	record Holder(CridId id) {
	}

}
