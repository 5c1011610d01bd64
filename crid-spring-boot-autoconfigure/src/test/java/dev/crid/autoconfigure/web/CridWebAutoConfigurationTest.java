package dev.crid.autoconfigure.web;

import dev.crid.CridException;
import dev.crid.autoconfigure.slices.web.IdController;
import dev.crid.autoconfigure.slices.web.SwitchableRegistry;
import dev.crid.autoconfigure.jackson.CridJacksonAutoConfiguration;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.http.codec.autoconfigure.CodecsAutoConfiguration;
import org.springframework.boot.http.converter.autoconfigure.HttpMessageConvertersAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.webflux.autoconfigure.WebFluxAutoConfiguration;
import org.springframework.boot.webmvc.autoconfigure.WebMvcAutoConfiguration;
import org.springframework.context.ApplicationContext;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.context.WebApplicationContext;
import org.springframework.web.reactive.config.WebFluxConfigurer;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link CridWebAutoConfiguration}: which stack gets what, the switch, and how
 * crid's answers rank against an application's own exception handling and Spring Boot's
 * problem details.
 */
class CridWebAutoConfigurationTest {

	private final WebApplicationContextRunner mvc = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(JacksonAutoConfiguration.class,
				HttpMessageConvertersAutoConfiguration.class, WebMvcAutoConfiguration.class,
				CridJacksonAutoConfiguration.class, CridWebAutoConfiguration.class))
		.withUserConfiguration(IdController.class, SwitchableRegistry.Beans.class);

	private final ReactiveWebApplicationContextRunner webFlux = new ReactiveWebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(JacksonAutoConfiguration.class, CodecsAutoConfiguration.class,
				WebFluxAutoConfiguration.class, CridJacksonAutoConfiguration.class, CridWebAutoConfiguration.class))
		.withUserConfiguration(IdController.class, SwitchableRegistry.Beans.class);

	@Test
	void givesASpringMvcApplicationTheFormatterAndTheProblemDetails() {
		this.mvc.run((context) -> assertThat(context).hasBean("cridWebMvcConfigurer")
			.doesNotHaveBean("cridWebFluxConfigurer")
			.hasSingleBean(InvalidCridIdAdvice.class)
			.hasSingleBean(CridFailureAdvice.class));
	}

	@Test
	void givesAWebFluxApplicationTheFormatterAndTheProblemDetails() {
		this.webFlux.run((context) -> assertThat(context).hasBean("cridWebFluxConfigurer")
			.doesNotHaveBean("cridWebMvcConfigurer")
			.hasSingleBean(InvalidCridIdAdvice.class)
			.hasSingleBean(CridFailureAdvice.class));
	}

	@Test
	void leavesAnApplicationThatIsNotOnTheWebAlone() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(CridWebAutoConfiguration.class))
			.run((context) -> assertThat(context).doesNotHaveBean(WebMvcConfigurer.class)
				.doesNotHaveBean(WebFluxConfigurer.class)
				.doesNotHaveBean(CridFailureAdvice.class));
	}

	@Test
	void backsOffWithoutSpringMvc() {
		this.mvc.withClassLoader(new FilteredClassLoader(WebMvcConfigurer.class))
			.run((context) -> assertThat(context).doesNotHaveBean("cridWebMvcConfigurer"));
	}

	@Test
	void switchedOffLeavesFailuresToSpringOnBothStacks() {
		this.mvc.withPropertyValues("crid.web.problem-details.enabled=false").run((context) -> {
			assertThat(context).hasBean("cridWebMvcConfigurer")
				.doesNotHaveBean(InvalidCridIdAdvice.class)
				.doesNotHaveBean(CridFailureAdvice.class);
			MockMvcTester mvc = mockMvc(context);
			assertThat(mvc.get().uri("/ids/12ab")).hasStatus(400).body().asString().doesNotContain("crid");
			context.getBean(SwitchableRegistry.class).setDown(true);
			assertThat(mvc.get().uri("/new-id")).hasFailed().failure().hasRootCauseInstanceOf(CridException.class);
		});
		this.webFlux.withPropertyValues("crid.web.problem-details.enabled=false").run((context) -> {
			context.getBean(SwitchableRegistry.class).setDown(true);
			webTestClient(context).get().uri("/new-id").exchange().expectStatus().isEqualTo(500);
		});
	}

	@Test
	void anApplicationsOwnAdviceWinsOnBothStacks() {
		this.mvc.withUserConfiguration(OwnAdvice.class).run((context) -> {
			context.getBean(SwitchableRegistry.class).setDown(true);
			assertThat(mockMvc(context).get().uri("/new-id")).hasStatus(HttpStatus.I_AM_A_TEAPOT);
		});
		this.webFlux.withUserConfiguration(OwnAdvice.class).run((context) -> {
			context.getBean(SwitchableRegistry.class).setDown(true);
			webTestClient(context).get().uri("/new-id").exchange().expectStatus().isEqualTo(HttpStatus.I_AM_A_TEAPOT);
		});
	}

	@Test
	void keepsTheReasonWhenSpringBootsProblemDetailsAreOn() {
		this.mvc.withPropertyValues("spring.mvc.problemdetails.enabled=true").run((context) -> {
			assertThat(context).hasBean("problemDetailsExceptionHandler");
			assertThat(mockMvc(context).get().uri("/ids/12ab")).hasStatus(400)
				.bodyJson()
				.extractingPath("$.detail")
				.asString()
				.startsWith("Invalid value for parameter 'id': Invalid crid ID \"12ab\"");
		});
		this.webFlux.withPropertyValues("spring.webflux.problemdetails.enabled=true").run((context) -> {
			assertThat(context).hasBean("problemDetailsExceptionHandler");
			webTestClient(context).get()
				.uri("/ids/12ab")
				.exchange()
				.expectStatus()
				.isBadRequest()
				.expectBody()
				.jsonPath("$.parameter")
				.isEqualTo("id")
				.jsonPath("$.detail")
				.value(String.class, (detail) -> assertThat(detail)
					.startsWith("Invalid value for parameter 'id': Invalid crid ID \"12ab\""));
		});
	}

	@Test
	void sendsTheConfiguredRetryAfterRoundedUpToWholeSeconds() {
		this.mvc.withPropertyValues("crid.web.retry-after=1500ms").run((context) -> {
			context.getBean(SwitchableRegistry.class).setDown(true);
			assertThat(mockMvc(context).get().uri("/new-id")).hasStatus(503)
				.hasHeader("Retry-After", "2")
				.bodyJson()
				.extractingPath("$.detail")
				.isEqualTo("IDs are temporarily unavailable; retry in 2 s.");
		});
	}

	private static MockMvcTester mockMvc(ApplicationContext context) {
		return MockMvcTester.from((WebApplicationContext) context);
	}

	private static WebTestClient webTestClient(ApplicationContext context) {
		return WebTestClient.bindToApplicationContext(context).build();
	}

	/**
	 * An application's own handling of crid's exceptions, through a supertype and without
	 * an order.
	 */
	@ControllerAdvice
	static class OwnAdvice {

		@ExceptionHandler(RuntimeException.class)
		ResponseEntity<String> own(RuntimeException ex) {
			return ResponseEntity.status(HttpStatus.I_AM_A_TEAPOT).body("own");
		}

	}

}
