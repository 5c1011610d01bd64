package dev.crid.autoconfigure.web;

import java.util.List;

import dev.crid.ClockBeforeEpochException;
import dev.crid.CridLayout;
import dev.crid.CridNode;
import dev.crid.LayoutMismatchException;
import dev.crid.NodeClosedException;
import dev.crid.RegistryException;
import dev.crid.SequenceOverflowException;

import dev.crid.autoconfigure.jackson.CridJacksonAutoConfiguration;
import dev.crid.autoconfigure.slices.web.IdController;
import dev.crid.autoconfigure.slices.web.SwitchableRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.codec.autoconfigure.CodecsAutoConfiguration;
import org.springframework.boot.http.converter.autoconfigure.HttpMessageConvertersAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.webflux.autoconfigure.WebFluxAutoConfiguration;
import org.springframework.boot.webflux.autoconfigure.error.ErrorWebFluxAutoConfiguration;
import org.springframework.boot.webmvc.autoconfigure.WebMvcAutoConfiguration;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import org.springframework.web.context.WebApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link CridFailureAdvice} answers 503 with {@code Retry-After} only for what passes by
 * itself, and 500 saying what is wrong for the rest; either follows content negotiation
 * on both stacks: a browser gets Spring Boot's error page, an API client the problem
 * detail.
 */
class CridFailureAdviceTest {

	private static final String BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

	private final WebApplicationContextRunner mvc = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(JacksonAutoConfiguration.class,
				HttpMessageConvertersAutoConfiguration.class, WebMvcAutoConfiguration.class,
				CridJacksonAutoConfiguration.class, CridWebAutoConfiguration.class))
		.withUserConfiguration(IdController.class, SwitchableRegistry.Beans.class);

	private final ReactiveWebApplicationContextRunner webFlux = new ReactiveWebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(JacksonAutoConfiguration.class, CodecsAutoConfiguration.class,
				WebFluxAutoConfiguration.class, ErrorWebFluxAutoConfiguration.class, CridJacksonAutoConfiguration.class,
				CridWebAutoConfiguration.class))
		.withUserConfiguration(IdController.class, SwitchableRegistry.Beans.class);

	@Test
	void onlyAnUnreachableRegistryAndAUsedUpWaitPassByThemselves() {
		assertThat(CridFailureAdvice.passesByItself(new RegistryException("down", null))).isTrue();
		assertThat(CridFailureAdvice.passesByItself(new SequenceOverflowException("second used up"))).isTrue();
		assertThat(CridFailureAdvice.passesByItself(new RegistryException("no table", null, false))).isFalse();
		assertThat(CridFailureAdvice.passesByItself(new LayoutMismatchException("registry",
				CridLayout.of(CridLayout.DEFAULT_EPOCH, 32, 31), CridLayout.DEFAULT)))
			.isFalse();
		assertThat(CridFailureAdvice.passesByItself(new NodeClosedException("closed"))).isFalse();
		assertThat(CridFailureAdvice.passesByItself(new ClockBeforeEpochException("clock"))).isFalse();
	}

	@Test
	void whatDoesNotPassIsA500SayingWhatIsWrongWithoutRetryAfter() {
		this.mvc.run((context) -> {
			MockMvcTester mvc = MockMvcTester.from((WebApplicationContext) context);
			SwitchableRegistry registry = context.getBean(SwitchableRegistry.class);
			registry.setState(SwitchableRegistry.State.OTHER_LAYOUT);
			assertThat(mvc.get().uri("/new-id")).hasStatus(500)
				.doesNotContainHeader("Retry-After")
				.bodyJson()
				.extractingPath("$.title")
				.isEqualTo("ID layout mismatch");
			registry.setState(SwitchableRegistry.State.REFUSING);
			assertThat(mvc.get().uri("/new-id")).hasStatus(500)
				.doesNotContainHeader("Retry-After")
				.bodyJson()
				.extractingPath("$.title")
				.isEqualTo("ID generator misconfigured");
			context.getBean(CridNode.class).close();
			assertThat(mvc.get().uri("/new-id")).hasStatus(500)
				.doesNotContainHeader("Retry-After")
				.bodyJson()
				.extractingPath("$.detail")
				.isEqualTo("The ID generator is closed: the service is shutting down.");
			assertThat(mvc.get().uri("/new-id").header("Accept", BROWSER)).hasStatus(500)
				.satisfies((result) -> assertThat(result.getResponse().getErrorMessage())
					.isEqualTo("ID generator closed"));
		});
		this.webFlux.run((context) -> {
			context.getBean(SwitchableRegistry.class).setState(SwitchableRegistry.State.REFUSING);
			WebTestClient.bindToApplicationContext(context)
				.build()
				.get()
				.uri("/new-id")
				.accept(MediaType.APPLICATION_JSON)
				.exchange()
				.expectStatus()
				.isEqualTo(500)
				.expectHeader()
				.doesNotExist("Retry-After")
				.expectBody()
				.jsonPath("$.title")
				.isEqualTo("ID generator misconfigured");
		});
	}

	@Test
	void aBrowserGetsTheServletContainersErrorDispatchOnSpringMvc() {
		this.mvc.run((context) -> {
			context.getBean(SwitchableRegistry.class).setDown(true);
			MockMvcTester mvc = MockMvcTester.from((WebApplicationContext) context);
			assertThat(mvc.get().uri("/new-id").header("Accept", BROWSER)).hasStatus(503)
				.hasHeader("Retry-After", "5")
				.satisfies((result) -> assertThat(result.getResponse().getErrorMessage())
					.as("sendError, which the container dispatches to Spring Boot's error page")
					.isEqualTo("IDs temporarily unavailable"))
				.body()
				.isEmpty();
		});
	}

	@Test
	void anApiClientGetsTheProblemDetailOnSpringMvc() {
		this.mvc.run((context) -> {
			context.getBean(SwitchableRegistry.class).setDown(true);
			MockMvcTester mvc = MockMvcTester.from((WebApplicationContext) context);
			for (String accept : List.of("application/json", "*/*", "application/problem+json, text/html;q=0.5")) {
				assertThat(mvc.get().uri("/new-id").header("Accept", accept)).as(accept)
					.hasStatus(503)
					.hasHeader("Retry-After", "5")
					.bodyJson()
					.extractingPath("$.title")
					.isEqualTo("IDs temporarily unavailable");
			}
			assertThat(mvc.get().uri("/new-id")).as("no Accept header")
				.hasStatus(503)
				.bodyJson()
				.extractingPath("$.title")
				.isEqualTo("IDs temporarily unavailable");
		});
	}

	@Test
	void aBrowserGetsSpringBootsErrorPageAndAnApiClientTheProblemDetailOnWebFlux() {
		this.webFlux.run((context) -> {
			context.getBean(SwitchableRegistry.class).setDown(true);
			WebTestClient client = WebTestClient.bindToApplicationContext(context).build();
			client.get()
				.uri("/new-id")
				.header("Accept", BROWSER)
				.exchange()
				.expectStatus()
				.isEqualTo(503)
				.expectHeader()
				.valueEquals("Retry-After", "5")
				.expectHeader()
				.contentTypeCompatibleWith(MediaType.TEXT_HTML)
				.expectBody(String.class)
				.value((page) -> assertThat(page).contains("503"));
			client.get()
				.uri("/new-id")
				.accept(MediaType.APPLICATION_JSON)
				.exchange()
				.expectStatus()
				.isEqualTo(503)
				.expectHeader()
				.valueEquals("Retry-After", "5")
				.expectBody()
				.jsonPath("$.title")
				.isEqualTo("IDs temporarily unavailable");
		});
	}

}
