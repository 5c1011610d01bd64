package dev.crid.sql;

import java.util.Objects;

/**
 * Thrown by the shared SQL when the registry's tables answered and the answer is no: a
 * second that was evicted, an eviction without the metadata table that keeps the
 * watermark. Asking again cannot mend it: a registry module turns it into a registry
 * exception that is not retryable, with this message.
 */
public final class RefusalException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	RefusalException(String message) {
		super(message, null, false, false);
	}

	/**
	 * Returns what was refused, and why.
	 * @return the message, never {@code null}
	 */
	@Override
	public String getMessage() {
		return Objects.requireNonNull(super.getMessage());
	}

}
