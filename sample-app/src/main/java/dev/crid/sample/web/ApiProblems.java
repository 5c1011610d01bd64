package dev.crid.sample.web;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import tools.jackson.core.JacksonException;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.validation.FieldError;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Answers every failure Spring MVC knows with a problem detail (RFC 9457), and says what was wrong where
 * Spring's own answer would not: an invalid order names each field and the rule it broke, an unreadable
 * body says where the JSON went wrong and why, and a body too large is a 413. (crid's starter answers a
 * malformed ID in the path, and a registry that is down, with problem details of its own.)
 */
@RestControllerAdvice
public class ApiProblems extends ResponseEntityExceptionHandler {

	/** Where Jackson's message points into the source, which it does not show: noise for a client. */
	private static final Pattern SOURCE_LOCATION = Pattern.compile(" \\(start marker at \\[Source: [^]]*\\]\\)");

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
			return handleExceptionInternal(ex, ProblemDetail.forStatusAndDetail(tooLarge,
					RequestSizeLimit.TooLargeException.DETAIL), headers, tooLarge, request);
		}
		JacksonException json = cause(ex, JacksonException.class);
		String detail = (json != null) ? "Unreadable JSON " + where(json) + ": "
				+ SOURCE_LOCATION.matcher(json.getOriginalMessage()).replaceAll("") : ex.getMessage();
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
		problem.setTitle("Unreadable request");
		return handleExceptionInternal(ex, problem, headers, status, request);
	}

	/** The field the JSON failed at, as {@code items[0].quantity}, else the line and column. */
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
