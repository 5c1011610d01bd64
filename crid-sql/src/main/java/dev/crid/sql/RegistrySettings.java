package dev.crid.sql;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * The defaults and the rules of the settings both database registries have: in one place,
 * so that the JDBC and R2DBC registries cannot drift apart.
 */
public final class RegistrySettings {

	/**
	 * How long one registry operation may take unless set otherwise, in seconds
	 * ({@value}): a compile-time constant, which code that must not load a registry can
	 * refer to.
	 */
	public static final long DEFAULT_QUERY_TIMEOUT_SECONDS = 5;

	/** How long rows are kept unless set otherwise, in days ({@value}). */
	public static final long DEFAULT_RETENTION_DAYS = 1;

	/** The longest query timeout accepted. */
	public static final Duration MAX_QUERY_TIMEOUT = Duration.ofDays(1);

	private RegistrySettings() {
	}

	/**
	 * Returns the rule a query timeout breaks, for a builder's report.
	 * @param queryTimeout the timeout, or {@code null}
	 * @return the rule, or {@code null} when the timeout is valid
	 */
	public static @Nullable String queryTimeoutRule(@Nullable Duration queryTimeout) {
		if (queryTimeout != null && !queryTimeout.isNegative() && !queryTimeout.isZero()
				&& queryTimeout.compareTo(MAX_QUERY_TIMEOUT) <= 0) {
			return null;
		}
		return "must be in (PT0S, " + MAX_QUERY_TIMEOUT + "]";
	}

	/**
	 * Returns the rule a retention breaks, for a builder's report: {@code null} and zero
	 * keep every row, anything else must be at least a second.
	 * @param retention the retention, or {@code null}
	 * @return the rule, or {@code null} when the retention is valid
	 */
	public static @Nullable String retentionRule(@Nullable Duration retention) {
		if (retention == null || retention.isZero() || retention.compareTo(Duration.ofSeconds(1)) >= 0) {
			return null;
		}
		return "must be at least PT1S (or zero to keep every row)";
	}

}
