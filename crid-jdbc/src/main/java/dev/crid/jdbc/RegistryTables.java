package dev.crid.jdbc;

/**
 * The two tables of a registry: the allocations, shared with crid for Go, and beside it
 * the metadata that only crid for Java reads (the eviction watermark and the layout),
 * named after the first with {@code _meta} appended so that Go nodes never see it.
 *
 * @param allocations the validated name of the allocation table, perhaps schema-qualified
 */
record RegistryTables(String allocations) {

	/** What the metadata table's name adds to the allocation table's. */
	static final String META_SUFFIX = "_meta";

	/** Returns the metadata table's name. */
	String meta() {
		return this.allocations + META_SUFFIX;
	}

}
