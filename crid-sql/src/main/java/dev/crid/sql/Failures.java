package dev.crid.sql;

/**
 * What the registries' failure messages say alike, whatever the driver.
 */
public final class Failures {

	/** What a message about a failure that asking again cannot mend ends with. */
	public static final String LASTING = "; asking again cannot mend this";

	private Failures() {
	}

	/**
	 * Names the innermost cause, which is where drivers and pools keep "connection
	 * refused" and the like.
	 * @param failure the failure
	 * @return {@code "; root cause: "} and the innermost cause, or nothing when the
	 * failure has no cause
	 */
	public static String rootCause(Throwable failure) {
		Throwable root = failure;
		for (int depth = 0; root.getCause() != null && root.getCause() != root && depth < 20; depth++) {
			root = root.getCause();
		}
		return (root != failure) ? "; root cause: " + root : "";
	}

}
