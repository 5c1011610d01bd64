package dev.crid;

/**
 * Thrown when a registry cannot reserve a block: it is unreachable, timed out, misconfigured or refused
 * the request. The underlying failure, if any, is the cause.
 */
public class RegistryException extends CridException {

	private static final long serialVersionUID = 1L;

	/**
	 * Creates an exception without an underlying cause.
	 * @param message what failed
	 */
	public RegistryException(String message) {
		super(message);
	}

	/**
	 * Creates an exception with the underlying cause.
	 * @param message what failed
	 * @param cause the underlying failure
	 */
	public RegistryException(String message, Throwable cause) {
		super(message, cause);
	}

}
