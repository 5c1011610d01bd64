package dev.crid;

import org.jspecify.annotations.Nullable;

/**
 * Root of every error crid reports. Unchecked, so generating an ID reads like any other
 * method call; crid never signals an error with a sentinel value.
 */
public class CridException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	/**
	 * Creates an exception with a message.
	 * @param message what went wrong
	 */
	public CridException(String message) {
		super(message);
	}

	/**
	 * Creates an exception with a message and a cause.
	 * @param message what went wrong
	 * @param cause the underlying failure, or {@code null}
	 */
	public CridException(String message, @Nullable Throwable cause) {
		super(message, cause);
	}

}
