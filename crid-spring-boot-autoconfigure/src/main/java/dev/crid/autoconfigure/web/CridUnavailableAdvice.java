package dev.crid.autoconfigure.web;

import java.time.Duration;

import dev.crid.CridException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;

/**
 * Answers a request whose handler failed with a {@link CridException} (typically the registry stayed
 * unreachable past {@code crid.allocation-timeout}) with 503 Service Unavailable, a {@code Retry-After}
 * header and an RFC 9457 problem detail saying that IDs are temporarily unavailable, instead of a bare 500,
 * for Spring MVC and WebFlux alike. The exception itself is logged, not sent to the client.
 *
 * <p>Ordered last, so an application's own advice for the exception, or for any of its supertypes, wins;
 * {@code crid.web.problem-details.enabled=false} removes this one.
 */
@ControllerAdvice
@Order(Ordered.LOWEST_PRECEDENCE)
final class CridUnavailableAdvice {

	private static final Log logger = LogFactory.getLog(CridUnavailableAdvice.class);

	private final String retryAfterSeconds;

	CridUnavailableAdvice(Duration retryAfter) {
		// Retry-After counts whole seconds; round up, and never tell a client to retry at once.
		long seconds = Math.max(1, retryAfter.plusNanos(999_999_999).getSeconds());
		this.retryAfterSeconds = Long.toString(seconds);
	}

	@ExceptionHandler(CridException.class)
	ResponseEntity<ProblemDetail> unavailable(CridException failure) {
		logger.warn("Answering 503 Service Unavailable: no crid ID could be handed out: " + failure);
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE,
				"IDs are temporarily unavailable; retry in " + this.retryAfterSeconds + " s.");
		problem.setTitle("IDs temporarily unavailable");
		return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
			.header(HttpHeaders.RETRY_AFTER, this.retryAfterSeconds)
			.body(problem);
	}

}
