package dev.crid.autoconfigure.web;

import dev.crid.CridId;
import dev.crid.format.CridIdFormatter;
import dev.crid.format.CridIdFormatter.InvalidCridIdException;

import org.springframework.core.MethodParameter;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.util.StringUtils;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.server.ServerWebInputException;

/**
 * Answers a request whose {@link CridId} parameter is malformed with 400 Bad Request and
 * an RFC 9457 problem detail that names the parameter and the reason, for Spring MVC and
 * WebFlux alike.
 *
 * <p>
 * It handles only the failure of {@link CridIdFormatter}, found as the cause of Spring's
 * binding exception, and is ordered ({@value #ORDER}) before Spring Boot's
 * problem-details handler (order 0) and before any advice without an order, whose generic
 * "Failed to convert" answer would lose the reason. An application advice with a lower
 * order wins; {@code crid.web.problem-details.enabled=false} removes this one.
 */
@ControllerAdvice
@Order(InvalidCridIdAdvice.ORDER)
final class InvalidCridIdAdvice {

	/** The order of this advice among the application's. */
	static final int ORDER = -100;

	@ExceptionHandler(InvalidCridIdException.class)
	ResponseEntity<ProblemDetail> invalidId(Exception failure, InvalidCridIdException reason) {
		String parameter = parameterName(failure);
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST,
				"Invalid value for parameter '" + parameter + "': " + reason.getMessage());
		problem.setTitle("Invalid crid ID");
		problem.setProperty("parameter", parameter);
		return ResponseEntity.badRequest().body(problem);
	}

	private static String parameterName(Exception failure) {
		if (failure instanceof MethodArgumentTypeMismatchException mismatch) {
			return mismatch.getName();
		}
		if (failure instanceof ServerWebInputException input && input.getMethodParameter() != null) {
			return parameterName(input.getMethodParameter());
		}
		return "(unknown)";
	}

	/**
	 * The name the request uses, as WebFlux does not tell it: the annotation's, else the
	 * Java name.
	 */
	private static String parameterName(MethodParameter parameter) {
		PathVariable pathVariable = parameter.getParameterAnnotation(PathVariable.class);
		RequestParam requestParam = parameter.getParameterAnnotation(RequestParam.class);
		RequestHeader requestHeader = parameter.getParameterAnnotation(RequestHeader.class);
		String name = (pathVariable != null) ? pathVariable.name()
				: (requestParam != null) ? requestParam.name() : (requestHeader != null) ? requestHeader.name() : null;
		String javaName = parameter.getParameterName();
		return StringUtils.hasText(name) ? name : (javaName != null) ? javaName : "(unknown)";
	}

}
