package dev.crid;

/**
 * Thrown when a registry answers with a block start that cannot be a sequence number,
 * such as a negative value. The node discards the answer and reserves afresh on the next
 * call.
 */
public class InvalidSequenceException extends CridException {

	private static final long serialVersionUID = 1L;

	/**
	 * Creates an exception.
	 * @param message the value the registry returned and the range expected
	 */
	public InvalidSequenceException(String message) {
		super(message);
	}

}
