package dev.crid;

/**
 * Thrown when a node's layout differs from the one its registry was first used with. Two
 * layouts on one registry can make the same ID from different (second, sequence) pairs,
 * so a registry records the first layout it serves and refuses every other. Not
 * retryable: the node's or the registry's configuration must change.
 */
public class LayoutMismatchException extends RegistryException {

	private static final long serialVersionUID = 1L;

	/** The layout the registry was first used with. */
	private final CridLayout registryLayout;

	/** The layout of the node that was refused. */
	private final CridLayout nodeLayout;

	/**
	 * Creates an exception naming both layouts.
	 * @param registry what the registry is, for the message
	 * @param registryLayout the layout the registry was first used with
	 * @param nodeLayout the layout of the node that was refused
	 */
	public LayoutMismatchException(String registry, CridLayout registryLayout, CridLayout nodeLayout) {
		super("Registry " + registry + " is used with " + describe(registryLayout) + ", but this node has "
				+ describe(nodeLayout) + ": IDs of the two layouts could collide. Give every node that shares the "
				+ "registry the same epoch and bit split, or give this node a registry of its own", null, false);
		this.registryLayout = registryLayout;
		this.nodeLayout = nodeLayout;
	}

	private static String describe(CridLayout layout) {
		return "epoch " + layout.epoch() + " with " + layout.timestampBits() + " timestamp bits and "
				+ layout.sequenceBits() + " sequence bits";
	}

	/**
	 * Returns the layout the registry was first used with.
	 * @return the registry's layout
	 */
	public CridLayout registryLayout() {
		return this.registryLayout;
	}

	/**
	 * Returns the layout of the node that was refused.
	 * @return the node's layout
	 */
	public CridLayout nodeLayout() {
		return this.nodeLayout;
	}

}
