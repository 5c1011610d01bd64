package dev.crid.autoconfigure.web;

import java.util.function.Consumer;

import dev.crid.CridId;
import dev.crid.autoconfigure.jackson.CridJacksonAutoConfiguration;
import dev.crid.autoconfigure.slices.web.IdController;
import dev.crid.autoconfigure.slices.web.SwitchableRegistry;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.codec.autoconfigure.CodecsAutoConfiguration;
import org.springframework.boot.http.converter.autoconfigure.HttpMessageConvertersAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.webflux.autoconfigure.WebFluxAutoConfiguration;
import org.springframework.boot.webmvc.autoconfigure.WebMvcAutoConfiguration;
import org.springframework.core.convert.ConversionService;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import org.springframework.web.context.WebApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With {@code crid.id-format=base32}, {@link CridId} request parameters bind from base32
 * only, on Spring MVC and on WebFlux, forgiving what people get wrong when they copy an
 * ID; anything else is a 400 problem detail naming the parameter and the reason. Links
 * print base32 too.
 */
class CridWebBase32Test {

	private static final String VECTOR_JSON = "{\"id\":\"00001YG000007\",\"value\":\"00001YG000007\"}";

	private final WebApplicationContextRunner mvc = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(JacksonAutoConfiguration.class,
				HttpMessageConvertersAutoConfiguration.class, WebMvcAutoConfiguration.class,
				CridJacksonAutoConfiguration.class, CridWebAutoConfiguration.class))
		.withUserConfiguration(IdController.class, SwitchableRegistry.Beans.class)
		.withPropertyValues("crid.id-format=base32");

	private final ReactiveWebApplicationContextRunner webFlux = new ReactiveWebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(JacksonAutoConfiguration.class, CodecsAutoConfiguration.class,
				WebFluxAutoConfiguration.class, CridJacksonAutoConfiguration.class, CridWebAutoConfiguration.class))
		.withUserConfiguration(IdController.class, SwitchableRegistry.Beans.class)
		.withPropertyValues("crid.id-format=base32");

	/**
	 * Spellings of the shared vector 2147483648007: as written, lower case, grouped, O
	 * for 0, short.
	 */
	@ParameterizedTest
	@ValueSource(strings = { "00001YG000007", "00001yg000007", "0000-1YG0-0000-7", "OOOO1YGOOOOO7", "1YG000007" })
	void bindsEverySpellingOfABase32PathVariable(String text) {
		onMvc((mvc) -> assertThat(mvc.get().uri("/ids/" + text)).hasStatusOk().bodyJson().isEqualTo(VECTOR_JSON));
		onWebFlux((client) -> client.get()
			.uri("/ids/" + text)
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.json(VECTOR_JSON, true));
	}

	@ParameterizedTest
	@CsvSource({ "OOOOOOOOOOOOI, 0000000000001", "000000000001L, 0000000000011", "0000000000010, 0000000000010" })
	void readsIAndLAsOneAndDigitsAsBase32InARequestParameter(String text, String written) {
		String json = "{\"id\":\"" + written + "\",\"value\":\"" + written + "\"}";
		onMvc((mvc) -> assertThat(mvc.get().uri("/ids?after=" + text)).hasStatusOk().bodyJson().isEqualTo(json));
		onWebFlux((client) -> client.get()
			.uri("/ids?after=" + text)
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.json(json, true));
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', quoteCharacter = '"',
			value = { "00001YG00000U | 'U' at index 12, which is no base32 character",
					"8000000000000 | a value above 9223372036854775807 (7ZZZZZZZZZZZZ)",
					"ZZZZZZZZZZZZZ | a value above 9223372036854775807 (7ZZZZZZZZZZZZ)",
					"1000000000000000 | more than 13 base32 characters", "---- | no base32 character" })
	void answersAMalformedBase32IdWithAProblemNamingTheParameterAndTheReason(String text, String reason) {
		String detail = "Invalid value for parameter 'id': Invalid base32 crid ID \"" + text + "\": it has " + reason
				+ "; expected 1 to 13 characters of Crockford's base32";
		onMvc((mvc) -> assertThat(mvc.get().uri("/ids/" + text)).hasStatus(400)
			.hasContentType(MediaType.APPLICATION_PROBLEM_JSON)
			.bodyJson()
			.satisfies((body) -> {
				assertThat(body).extractingPath("$.title").isEqualTo("Invalid crid ID");
				assertThat(body).extractingPath("$.parameter").isEqualTo("id");
				assertThat(body).extractingPath("$.detail").asString().startsWith(detail);
			}));
		onWebFlux((client) -> client.get()
			.uri("/ids/" + text)
			.exchange()
			.expectStatus()
			.isBadRequest()
			.expectHeader()
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.expectBody()
			.jsonPath("$.parameter")
			.isEqualTo("id")
			.jsonPath("$.detail")
			.value(String.class, (actual) -> assertThat(actual).startsWith(detail)));
	}

	@ParameterizedTest
	@ValueSource(strings = { "base32", "decimal" })
	void printsIdsInLinksInTheConfiguredForm(String format) {
		String expected = format.equals("base32") ? "0000000000010" : "32";
		this.mvc.withPropertyValues("crid.id-format=" + format)
			.run((context) -> assertThat(context.getBean("mvcConversionService", ConversionService.class)
				.convert(CridId.of(32), String.class)).isEqualTo(expected));
		this.webFlux.withPropertyValues("crid.id-format=" + format)
			.run((context) -> assertThat(context.getBean("webFluxConversionService", ConversionService.class)
				.convert(CridId.of(32), String.class)).isEqualTo(expected));
	}

	@ParameterizedTest
	@ValueSource(strings = { "00001YG000007", "1YG000007" })
	void aDecimalApplicationRefusesBase32(String text) {
		this.mvc.withPropertyValues("crid.id-format=decimal")
			.run((context) -> assertThat(mockMvc(context).get().uri("/ids/" + text)).hasStatus(400)
				.bodyJson()
				.extractingPath("$.detail")
				.asString()
				.startsWith("Invalid value for parameter 'id': Invalid crid ID \"" + text + "\": expected a decimal"));
	}

	private void onMvc(Consumer<MockMvcTester> test) {
		this.mvc.run((context) -> test.accept(mockMvc(context)));
	}

	private void onWebFlux(Consumer<WebTestClient> test) {
		this.webFlux.run((context) -> test.accept(WebTestClient.bindToApplicationContext(context).build()));
	}

	private static MockMvcTester mockMvc(org.springframework.context.ApplicationContext context) {
		return MockMvcTester.from((WebApplicationContext) context);
	}

}
