package dev.crid;

import java.util.List;

/**
 * Thrown when a layout or a node is configured with values outside their allowed ranges. It lists every
 * violated rule at once, each naming the setting, the value given and the range allowed.
 */
public class InvalidConfigException extends CridException {

	private static final long serialVersionUID = 1L;

	/** One sentence per violated rule. */
	private final List<String> violations;

	/**
	 * Creates an exception for the given violations.
	 * @param violations one sentence per violated rule, never empty
	 */
	public InvalidConfigException(List<String> violations) {
		super("Invalid crid configuration: " + String.join("; ", violations));
		this.violations = List.copyOf(violations);
	}

	/**
	 * Returns the violated rules, one sentence each.
	 * @return the violations, never empty
	 */
	public List<String> violations() {
		return this.violations;
	}

}
