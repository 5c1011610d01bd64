package dev.crid;

import org.jspecify.annotations.Nullable;

/**
 * Thrown when a registry cannot reserve a block: it is unreachable, timed out,
 * misconfigured or refused the request. The underlying failure, if any, is the cause.
 *
 * <p>
 * Most registry failures pass (a database that restarts, a connection that was cut), so a
 * node keeps asking, with backoff, until the caller's allocation timeout runs out. A
 * failure that asking again cannot mend (a missing table, a second the registry has
 * evicted, a layout the registry was not made for) is not {@link #isRetryable()
 * retryable}: callers get it at once.
 */
public class RegistryException extends CridException {

	private static final long serialVersionUID = 1L;

	/** Whether asking the registry again may succeed. */
	private final boolean retryable;

	/**
	 * Creates a retryable exception without an underlying cause.
	 * @param message what failed
	 */
	public RegistryException(String message) {
		this(message, null, true);
	}

	/**
	 * Creates a retryable exception with the underlying cause.
	 * @param message what failed
	 * @param cause the underlying failure, or {@code null}
	 */
	public RegistryException(String message, @Nullable Throwable cause) {
		this(message, cause, true);
	}

	/**
	 * Creates an exception with the underlying cause, saying whether asking again may
	 * succeed.
	 * @param message what failed
	 * @param cause the underlying failure, or {@code null}
	 * @param retryable {@code false} when only a change of configuration, schema or clock
	 * can mend it
	 */
	public RegistryException(String message, @Nullable Throwable cause, boolean retryable) {
		super(message, cause);
		this.retryable = retryable;
	}

	/**
	 * Returns whether asking the registry again may succeed. A node retries retryable
	 * failures, with backoff, until the caller's allocation timeout; any other failure
	 * reaches the caller at once.
	 * @return {@code true} for failures that may pass, such as a lost connection or a
	 * timeout
	 */
	public boolean isRetryable() {
		return this.retryable;
	}

}
