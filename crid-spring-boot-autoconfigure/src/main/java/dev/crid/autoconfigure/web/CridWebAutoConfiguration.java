package dev.crid.autoconfigure.web;

import dev.crid.CridId;
import dev.crid.autoconfigure.CridProperties;
import dev.crid.format.CridIdFormatter;
import dev.crid.format.IdFormat;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.format.FormatterRegistry;
import org.springframework.http.ProblemDetail;
import org.springframework.web.reactive.config.WebFluxConfigurer;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Auto-configuration of crid for Spring MVC and WebFlux: {@link CridId} request
 * parameters bind from the form {@code crid.id-format} chooses (decimal or base32), a
 * malformed one is answered with 400 and the reason, and a handler that fails with a
 * {@code CridException} is answered with 503 and {@code Retry-After} when the failure
 * passes by itself (the registry unreachable, the wait for a block used up), else with
 * 500, saying what is wrong: all as RFC 9457 problem details (as Spring Boot's error page
 * to a client that prefers HTML) unless {@code crid.web.problem-details.enabled=false}.
 */
@AutoConfiguration
@ConditionalOnClass({ CridId.class, ProblemDetail.class })
@ConditionalOnWebApplication
@ConditionalOnBooleanProperty(name = "crid.enabled", matchIfMissing = true)
@EnableConfigurationProperties(CridProperties.class)
public final class CridWebAutoConfiguration {

	CridWebAutoConfiguration() {
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
	@ConditionalOnClass(WebMvcConfigurer.class)
	static class WebMvc {

		@Bean
		@ConditionalOnMissingBean(name = "cridWebMvcConfigurer")
		WebMvcConfigurer cridWebMvcConfigurer(CridProperties properties) {
			IdFormat format = properties.getIdFormat();
			return new WebMvcConfigurer() {

				@Override
				public void addFormatters(FormatterRegistry registry) {
					registry.addFormatter(new CridIdFormatter(format));
				}

			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
	@ConditionalOnClass(WebFluxConfigurer.class)
	static class WebFlux {

		@Bean
		@ConditionalOnMissingBean(name = "cridWebFluxConfigurer")
		WebFluxConfigurer cridWebFluxConfigurer(CridProperties properties) {
			IdFormat format = properties.getIdFormat();
			return new WebFluxConfigurer() {

				@Override
				public void addFormatters(FormatterRegistry registry) {
					registry.addFormatter(new CridIdFormatter(format));
				}

			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBooleanProperty(name = "crid.web.problem-details.enabled", matchIfMissing = true)
	static class ProblemDetails {

		@Bean
		@ConditionalOnMissingBean
		InvalidCridIdAdvice cridInvalidIdAdvice() {
			return new InvalidCridIdAdvice();
		}

		@Bean("cridFailureAdvice")
		@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
		@ConditionalOnMissingBean(CridFailureAdvice.class)
		CridFailureAdvice.Servlet cridServletFailureAdvice(CridProperties properties) {
			return new CridFailureAdvice.Servlet(properties.getWeb().getRetryAfter());
		}

		@Bean("cridFailureAdvice")
		@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
		@ConditionalOnMissingBean(CridFailureAdvice.class)
		CridFailureAdvice.Reactive cridReactiveFailureAdvice(CridProperties properties) {
			return new CridFailureAdvice.Reactive(properties.getWeb().getRetryAfter());
		}

	}

}
