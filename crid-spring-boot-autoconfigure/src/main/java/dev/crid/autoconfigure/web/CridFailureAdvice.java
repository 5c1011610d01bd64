package dev.crid.autoconfigure.web;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.crid.CridException;
import dev.crid.LayoutMismatchException;
import dev.crid.NodeClosedException;
import dev.crid.RegistryException;
import dev.crid.SequenceOverflowException;
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
 * Answers a request whose handler failed with a {@link CridException}, for Spring MVC
 * ({@link Servlet}) and WebFlux ({@link Reactive}) alike, by whether the failure passes
 * by itself:
 * <ul>
 * <li>503 Service Unavailable with {@code Retry-After} when it does: the registry could
 * not be reached (a {@linkplain RegistryException#isRetryable() retryable}
 * {@link RegistryException}, typically past {@code crid.allocation-timeout}) or the wait
 * for the next second ran out ({@link SequenceOverflowException});</li>
 * <li>500 Internal Server Error when it does not, saying which: a registry used with
 * another layout ({@link LayoutMismatchException}), a closed node
 * ({@link NodeClosedException}), or a misconfiguration (any other: a registry that
 * refuses for good, such as a missing table, or a clock outside the layout).</li>
 * </ul>
 * The answer follows content negotiation: a client that prefers HTML (a browser) gets
 * Spring Boot's error page for the status, any other an RFC 9457 problem detail. The
 * exception itself is logged, not sent to the client.
 *
 * <p>
 * Ordered last, so an application's own advice for the exception, or for any of its
 * supertypes, wins; {@code crid.web.problem-details.enabled=false} removes this one.
 */
abstract class CridFailureAdvice {

	private static final Log logger = LogFactory.getLog(CridFailureAdvice.class);

	private static final List<MediaType> PROBLEM_TYPES = List.of(MediaType.APPLICATION_PROBLEM_JSON,
			MediaType.APPLICATION_JSON);

	private final String retryAfterSeconds;

	CridFailureAdvice(Duration retryAfter) {
		// Retry-After counts whole seconds; round up, and never tell a client to retry at
		// once.
		long seconds = Math.max(1, retryAfter.plusNanos(999_999_999).toSeconds());
		this.retryAfterSeconds = Long.toString(seconds);
	}

	/**
	 * Returns the answer to a failure, and logs the failure.
	 */
	final Answer answer(CridException failure) {
		Answer answer = classify(failure);
		logger.warn("Answering " + answer.status().value() + " " + answer.status().getReasonPhrase() + " ("
				+ answer.title() + "): " + failure);
		return answer;
	}

	private Answer classify(CridException failure) {
		if (passesByItself(failure)) {
			return new Answer(HttpStatus.SERVICE_UNAVAILABLE, "IDs temporarily unavailable",
					"IDs are temporarily unavailable; retry in " + this.retryAfterSeconds + " s.", true);
		}
		if (failure instanceof LayoutMismatchException) {
			return new Answer(HttpStatus.INTERNAL_SERVER_ERROR, "ID layout mismatch",
					"This service makes IDs with another layout than its ID registry was first used with, so it "
							+ "makes none: IDs of the two layouts could collide.",
					false);
		}
		if (failure instanceof NodeClosedException) {
			return new Answer(HttpStatus.INTERNAL_SERVER_ERROR, "ID generator closed",
					"The ID generator is closed: the service is shutting down.", false);
		}
		return new Answer(HttpStatus.INTERNAL_SERVER_ERROR, "ID generator misconfigured",
				"No ID can be made until the configuration of the service's ID generator is mended.", false);
	}

	/**
	 * Whether the failure passes by itself: the registry unreachable, or the wait for the
	 * next second used up.
	 */
	static boolean passesByItself(CridException failure) {
		return (failure instanceof RegistryException registry && registry.isRetryable())
				|| failure instanceof SequenceOverflowException;
	}

	final ResponseEntity<ProblemDetail> problem(Answer answer) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(answer.status(), answer.detail());
		problem.setTitle(answer.title());
		ResponseEntity.BodyBuilder response = ResponseEntity.status(answer.status());
		if (answer.retryAfter()) {
			response.header(HttpHeaders.RETRY_AFTER, this.retryAfterSeconds);
		}
		return response.body(problem);
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
	 * The answer to a failure.
	 *
	 * @param status 503 or 500
	 * @param title the problem's title, and the error page's message
	 * @param detail what is wrong, for the client
	 * @param retryAfter whether the answer tells when to retry
	 */
	record Answer(HttpStatus status, String title, String detail, boolean retryAfter) {
	}

	/**
	 * For Spring MVC: an HTML page through the servlet container's error dispatch, so
	 * Spring Boot's error controller renders it ({@code error/503.html} or
	 * {@code error/500.html}, else the {@code error} view).
	 */
	@ControllerAdvice
	@Order(Ordered.LOWEST_PRECEDENCE)
	static final class Servlet extends CridFailureAdvice {

		Servlet(Duration retryAfter) {
			super(retryAfter);
		}

		@ExceptionHandler(CridException.class)
		@Nullable ResponseEntity<ProblemDetail> failed(CridException failure, HttpServletRequest request,
				HttpServletResponse response) throws IOException {
			Answer answer = answer(failure);
			if (!prefersHtml(MediaType.parseMediaTypes(request.getHeader(HttpHeaders.ACCEPT)))) {
				return problem(answer);
			}
			if (answer.retryAfter()) {
				response.setHeader(HttpHeaders.RETRY_AFTER, retryAfterSeconds());
			}
			response.sendError(answer.status().value(), answer.title());
			return null;
		}

	}

	/**
	 * For WebFlux: an HTML page from Spring Boot's error handler, which renders
	 * {@code error/503.html} or {@code error/500.html}, else its own page.
	 */
	@ControllerAdvice
	@Order(Ordered.LOWEST_PRECEDENCE)
	static final class Reactive extends CridFailureAdvice {

		Reactive(Duration retryAfter) {
			super(retryAfter);
		}

		@ExceptionHandler(CridException.class)
		Mono<ResponseEntity<ProblemDetail>> failed(CridException failure, ServerWebExchange exchange) {
			Answer answer = answer(failure);
			if (!prefersHtml(exchange.getRequest().getHeaders().getAccept())) {
				return Mono.just(problem(answer));
			}
			if (answer.retryAfter()) {
				exchange.getResponse().getHeaders().set(HttpHeaders.RETRY_AFTER, retryAfterSeconds());
			}
			return Mono.error(new ResponseStatusException(answer.status(), answer.title(), failure));
		}

	}

}
