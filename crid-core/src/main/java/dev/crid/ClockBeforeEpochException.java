package dev.crid;

/**
 * Thrown when the clock reads a time before the layout's epoch, so no timestamp can be
 * formed.
 */
public class ClockBeforeEpochException extends CridException {

	private static final long serialVersionUID = 1L;

	/**
	 * Creates an exception.
	 * @param message what the clock read and what the epoch is
	 */
	public ClockBeforeEpochException(String message) {
		super(message);
	}

}
