package dev.crid.sample.web;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import tools.jackson.core.JacksonException;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.validation.FieldError;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Answers every failure Spring MVC knows with a problem detail (RFC 9457), and says what
 * was wrong where Spring's own answer would not: an invalid order names each field and
 * the rule it broke, an unreadable body says where the JSON went wrong and why, and a
 * body too large is a 413. No detail names a Java method. A database that cannot be
 * reached is a 503 with {@code Retry-After}, as crid's starter answers a registry that is
 * down (and a malformed ID in the path, with problem details of its own); the
 * {@code Retry-After} is crid's, {@code crid.web.retry-after}.
 */
@RestControllerAdvice
public class ApiProblems extends ResponseEntityExceptionHandler {

	/**
	 * Where Jackson's message points into the source, which it does not show: noise for a
	 * client.
	 */
	private static final Pattern SOURCE_LOCATION = Pattern.compile(" \\(start marker at \\[Source: [^]]*\\]\\)");

	private final String retryAfterSeconds;

	ApiProblems(@Value("${crid.web.retry-after:5s}") Duration retryAfter) {
		// Whole seconds, rounded up, and never 0: a client told to retry at once would
		// only add to the load.
		this.retryAfterSeconds = Long.toString(Math.max(1, (retryAfter.toMillis() + 999) / 1000));
	}

	/**
	 * Answers a database that cannot be reached (no connection, no transaction, a
	 * timeout) with 503, as crid answers a registry that is down, instead of a bare 500.
	 * The exception is logged, not sent.
	 * @param ex the failure
	 * @return 503 with {@code Retry-After} and a problem detail
	 */
	@ExceptionHandler({ DataAccessResourceFailureException.class, CannotCreateTransactionException.class,
			TransientDataAccessException.class })
	ResponseEntity<Object> handleDatabaseUnavailable(Exception ex, WebRequest request) {
		logger.warn("Answering 503 Service Unavailable: the database cannot be reached: " + ex);
		HttpStatus unavailable = HttpStatus.SERVICE_UNAVAILABLE;
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(unavailable,
				"The database is temporarily unavailable; retry in " + this.retryAfterSeconds + " s.");
		problem.setTitle("Database temporarily unavailable");
		HttpHeaders headers = new HttpHeaders();
		headers.set(HttpHeaders.RETRY_AFTER, this.retryAfterSeconds);
		return handleExceptionInternal(ex, problem, headers, unavailable, request);
	}

	@Override
	protected ResponseEntity<Object> handleMethodArgumentNotValid(MethodArgumentNotValidException ex,
			HttpHeaders headers, HttpStatusCode status, WebRequest request) {
		List<Map<String, String>> errors = ex.getBindingResult()
			.getFieldErrors()
			.stream()
			.sorted(Comparator.comparing(FieldError::getField))
			.map((error) -> Map.of("field", error.getField(), "message", String.valueOf(error.getDefaultMessage())))
			.toList();
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, String.join("; ",
				errors.stream().map((error) -> error.get("field") + " " + error.get("message")).toList()));
		problem.setTitle("Invalid request");
		problem.setProperty("errors", errors);
		return handleExceptionInternal(ex, problem, headers, status, request);
	}

	@Override
	protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException ex,
			HttpHeaders headers, HttpStatusCode status, WebRequest request) {
		if (cause(ex, RequestSizeLimit.TooLargeException.class) != null) {
			HttpStatus tooLarge = HttpStatus.CONTENT_TOO_LARGE;
			return handleExceptionInternal(ex,
					ProblemDetail.forStatusAndDetail(tooLarge, RequestSizeLimit.TooLargeException.DETAIL), headers,
					tooLarge, request);
		}
		JacksonException json = cause(ex, JacksonException.class);
		String detail = (json != null) ? "Unreadable JSON " + where(json) + ": "
				+ SOURCE_LOCATION.matcher(json.getOriginalMessage()).replaceAll("") : withoutHandler(ex);
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
		problem.setTitle("Unreadable request");
		return handleExceptionInternal(ex, problem, headers, status, request);
	}

	/**
	 * Spring's message up to its colon: what follows names the handler method, a Java
	 * signature that tells a client nothing ("Required request body is missing: public
	 * ...ResponseEntity... create(...)").
	 */
	private static String withoutHandler(HttpMessageNotReadableException ex) {
		String message = String.valueOf(ex.getMessage());
		int colon = message.indexOf(": ");
		return (colon >= 0) ? message.substring(0, colon) : message;
	}

	/**
	 * The field the JSON failed at, as {@code items[0].quantity}, else the line and
	 * column.
	 */
	private static String where(JacksonException ex) {
		StringBuilder path = new StringBuilder();
		for (JacksonException.Reference reference : ex.getPath()) {
			if (reference.getPropertyName() != null) {
				path.append((path.length() > 0) ? "." : "").append(reference.getPropertyName());
			}
			else if (reference.getIndex() >= 0) {
				path.append('[').append(reference.getIndex()).append(']');
			}
		}
		if (path.length() > 0) {
			return "at " + path;
		}
		return (ex.getLocation() != null && ex.getLocation().getLineNr() > 0)
				? "at line " + ex.getLocation().getLineNr() + ", column " + ex.getLocation().getColumnNr() : "";
	}

	private static <T extends Throwable> T cause(Throwable ex, Class<T> type) {
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			if (type.isInstance(cause)) {
				return type.cast(cause);
			}
		}
		return null;
	}

}
