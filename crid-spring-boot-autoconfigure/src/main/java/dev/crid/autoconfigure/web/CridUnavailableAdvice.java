package dev.crid.autoconfigure.web;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.crid.CridException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.publisher.Mono;

import org.jspecify.annotations.Nullable;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.util.MimeTypeUtils;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebExchange;

/**
 * Answers a request whose handler failed with a {@link CridException} (typically the
 * registry stayed unreachable past {@code crid.allocation-timeout}) with 503 Service
 * Unavailable and a {@code Retry-After} header instead of a bare 500, for Spring MVC
 * ({@link Servlet}) and WebFlux ({@link Reactive}) alike. The answer follows content
 * negotiation: a client that prefers HTML (a browser) gets Spring Boot's error page for
 * 503, any other an RFC 9457 problem detail saying that IDs are temporarily unavailable.
 * The exception itself is logged, not sent to the client.
 *
 * <p>
 * Ordered last, so an application's own advice for the exception, or for any of its
 * supertypes, wins; {@code crid.web.problem-details.enabled=false} removes this one.
 */
abstract class CridUnavailableAdvice {

	private static final Log logger = LogFactory.getLog(CridUnavailableAdvice.class);

	private static final List<MediaType> PROBLEM_TYPES = List.of(MediaType.APPLICATION_PROBLEM_JSON,
			MediaType.APPLICATION_JSON);

	private final String retryAfterSeconds;

	CridUnavailableAdvice(Duration retryAfter) {
		// Retry-After counts whole seconds; round up, and never tell a client to retry at
		// once.
		long seconds = Math.max(1, retryAfter.plusNanos(999_999_999).toSeconds());
		this.retryAfterSeconds = Long.toString(seconds);
	}

	final ResponseEntity<ProblemDetail> problem(CridException failure) {
		logger.warn("Answering 503 Service Unavailable: no crid ID could be handed out: " + failure);
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE,
				"IDs are temporarily unavailable; retry in " + this.retryAfterSeconds + " s.");
		problem.setTitle("IDs temporarily unavailable");
		return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
			.header(HttpHeaders.RETRY_AFTER, this.retryAfterSeconds)
			.body(problem);
	}

	final String retryAfterSeconds() {
		return this.retryAfterSeconds;
	}

	/**
	 * Whether the client would rather have an HTML page than a problem detail: the first
	 * of the types it accepts, in its order of preference, that is HTML or JSON is HTML.
	 * A client that accepts anything ({@code *}{@code /*} alone) gets the problem detail,
	 * as from Spring Boot's error controller.
	 */
	static boolean prefersHtml(List<MediaType> accepted) {
		List<MediaType> ordered = new ArrayList<>(accepted);
		MimeTypeUtils.sortBySpecificity(ordered);
		for (MediaType type : ordered) {
			if (type.isWildcardType()) {
				continue;
			}
			if (MediaType.TEXT_HTML.isCompatibleWith(type)) {
				return true;
			}
			if (PROBLEM_TYPES.stream().anyMatch(type::isCompatibleWith)) {
				return false;
			}
		}
		return false;
	}

	/**
	 * For Spring MVC: an HTML page through the servlet container's error dispatch, so
	 * Spring Boot's error controller renders it ({@code error/503.html}, else the
	 * {@code error} view).
	 */
	@ControllerAdvice
	@Order(Ordered.LOWEST_PRECEDENCE)
	static final class Servlet extends CridUnavailableAdvice {

		Servlet(Duration retryAfter) {
			super(retryAfter);
		}

		@ExceptionHandler(CridException.class)
		@Nullable ResponseEntity<ProblemDetail> unavailable(CridException failure, HttpServletRequest request,
				HttpServletResponse response) throws IOException {
			if (!prefersHtml(MediaType.parseMediaTypes(request.getHeader(HttpHeaders.ACCEPT)))) {
				return problem(failure);
			}
			logger.warn("Answering 503 Service Unavailable with the error page: no crid ID could be handed out: "
					+ failure);
			response.setHeader(HttpHeaders.RETRY_AFTER, retryAfterSeconds());
			response.sendError(HttpStatus.SERVICE_UNAVAILABLE.value(), "IDs are temporarily unavailable");
			return null;
		}

	}

	/**
	 * For WebFlux: an HTML page from Spring Boot's error handler, which renders
	 * {@code error/503.html}, else its own page.
	 */
	@ControllerAdvice
	@Order(Ordered.LOWEST_PRECEDENCE)
	static final class Reactive extends CridUnavailableAdvice {

		Reactive(Duration retryAfter) {
			super(retryAfter);
		}

		@ExceptionHandler(CridException.class)
		Mono<ResponseEntity<ProblemDetail>> unavailable(CridException failure, ServerWebExchange exchange) {
			if (!prefersHtml(exchange.getRequest().getHeaders().getAccept())) {
				return Mono.just(problem(failure));
			}
			logger.warn("Answering 503 Service Unavailable with the error page: no crid ID could be handed out: "
					+ failure);
			exchange.getResponse().getHeaders().set(HttpHeaders.RETRY_AFTER, retryAfterSeconds());
			return Mono.error(new ResponseStatusException(HttpStatus.SERVICE_UNAVAILABLE,
					"IDs are temporarily unavailable", failure));
		}

	}

}
