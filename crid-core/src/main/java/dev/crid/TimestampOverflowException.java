package dev.crid;

/**
 * Thrown when the clock has passed the last second the layout's timestamp bits can hold.
 */
public class TimestampOverflowException extends CridException {

	private static final long serialVersionUID = 1L;

	/**
	 * Creates an exception.
	 * @param message the timestamp reached and the layout's maximum
	 */
	public TimestampOverflowException(String message) {
		super(message);
	}

}
