package dev.crid.autoconfigure;

import java.time.Duration;

import dev.crid.format.IdFormat;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties for crid, under the prefix {@code crid}: the default node's
 * own ({@link NodeProperties}) and those of the application as a whole. Named nodes,
 * {@code crid.nodes.<name>.*}, take the keys of {@link NodeProperties}, bound on top of a
 * copy of {@code crid.*}. As in Spring Boot's own properties classes, each field's
 * Javadoc is the property's description (what IDEs show, from the generated metadata);
 * the accessors repeat nothing.
 */
@ConfigurationProperties("crid")
public class CridProperties extends NodeProperties {

	/**
	 * Whether to auto-configure crid: the node, its registry, and the Jackson, health,
	 * metrics and endpoint support.
	 */
	private boolean enabled = true;

	/**
	 * How IDs travel as text: 'decimal' ("2147483648007") or 'base32' (13 characters of
	 * Crockford's base32, "00001YG000007"). It applies to CridId values and @Crid
	 * properties written as JSON strings, and to CridId request parameters, which are
	 * read in this form only: a value is never guessed between the two. 'base32' needs
	 * crid.jackson.ids-as-strings=true.
	 */
	private IdFormat idFormat = IdFormat.DECIMAL;

	/**
	 * How crid IDs are written as JSON.
	 */
	private final Jackson jackson = new Jackson();

	/**
	 * How Spring MVC and WebFlux applications answer requests that crid cannot serve.
	 */
	private final Web web = new Web();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public IdFormat getIdFormat() {
		return this.idFormat;
	}

	public void setIdFormat(IdFormat idFormat) {
		this.idFormat = idFormat;
	}

	public Jackson getJackson() {
		return this.jackson;
	}

	public Web getWeb() {
		return this.web;
	}

	/**
	 * How crid IDs are written as JSON.
	 */
	public static class Jackson {

		/**
		 * Whether long and Long properties annotated @Crid (dev.crid.hibernate.Crid) are
		 * written as JSON strings and read from strings or numbers, so that JavaScript
		 * clients, whose numbers are exact only up to 2^53, see every ID exactly. CridId
		 * values are written as strings either way.
		 */
		private boolean idsAsStrings = true;

		public boolean isIdsAsStrings() {
			return this.idsAsStrings;
		}

		public void setIdsAsStrings(boolean idsAsStrings) {
			this.idsAsStrings = idsAsStrings;
		}

	}

	/**
	 * How Spring MVC and WebFlux applications answer requests that crid cannot serve.
	 */
	public static class Web {

		/**
		 * crid's RFC 9457 problem details.
		 */
		private final ProblemDetails problemDetails = new ProblemDetails();

		/**
		 * Retry-After sent with a 503 answer when no ID could be handed out for a while
		 * (the registry unreachable, or the wait for a block used up), in whole seconds
		 * (rounded up).
		 */
		private Duration retryAfter = Duration.ofSeconds(5);

		public ProblemDetails getProblemDetails() {
			return this.problemDetails;
		}

		public Duration getRetryAfter() {
			return this.retryAfter;
		}

		public void setRetryAfter(Duration retryAfter) {
			this.retryAfter = retryAfter;
		}

	}

	/**
	 * crid's RFC 9457 problem details for Spring MVC and WebFlux.
	 */
	public static class ProblemDetails {

		/**
		 * Whether crid answers a request whose handler failed with a CridException with a
		 * problem detail: 503 Service Unavailable and Retry-After for what passes by
		 * itself (the registry unreachable, the wait for a block used up), 500 for what
		 * does not (a layout mismatch, a closed node, a misconfiguration); and a
		 * malformed CridId request parameter with 400, naming the parameter and the
		 * reason. An application's own exception handling for CridException wins either
		 * way.
		 */
		private boolean enabled = true;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

	}

}
