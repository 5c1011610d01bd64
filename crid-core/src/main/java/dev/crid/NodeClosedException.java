package dev.crid;

/**
 * Thrown by {@link CridNode#nextId()} once the node has been closed.
 */
public class NodeClosedException extends CridException {

	private static final long serialVersionUID = 1L;

	/**
	 * Creates an exception.
	 * @param message what was attempted
	 */
	public NodeClosedException(String message) {
		super(message);
	}

}
