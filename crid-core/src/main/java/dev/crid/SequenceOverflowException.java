package dev.crid;

/**
 * Thrown when every sequence number of the current second is reserved and the next second
 * did not arrive within the node's allocation timeout.
 */
public class SequenceOverflowException extends CridException {

	private static final long serialVersionUID = 1L;

	/**
	 * Creates an exception.
	 * @param message the exhausted second and how long the node waited
	 */
	public SequenceOverflowException(String message) {
		super(message);
	}

}
