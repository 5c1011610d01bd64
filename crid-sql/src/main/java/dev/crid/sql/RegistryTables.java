package dev.crid.sql;

import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * The two tables of a registry: the allocation table ({@value #DEFAULT_NAME} by default),
 * whose rows record the reservations, shared with crid for Go, and beside it the metadata
 * that only crid for Java reads (the eviction watermark and the layout), named after the
 * first with {@value #META_SUFFIX} appended so that Go nodes never see it. Identifiers
 * cannot be bound as parameters, so only names that cannot change a statement's meaning
 * are accepted: see {@link #nameRule(String)}.
 *
 * @param allocations the name of the allocation table, perhaps schema-qualified
 */
public record RegistryTables(String allocations) {

	/** The allocation table's name unless set otherwise: {@value}, the Go crid's. */
	public static final String DEFAULT_NAME = "crid_allocations";

	/** What the metadata table's name adds to the allocation table's. */
	public static final String META_SUFFIX = "_meta";

	private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)?");

	/**
	 * Names the tables of a registry.
	 * @param allocations the name of the allocation table
	 * @throws IllegalArgumentException when the name breaks {@link #nameRule(String)}
	 */
	public RegistryTables {
		String rule = nameRule(allocations);
		if (rule != null) {
			throw new IllegalArgumentException("The table name '" + allocations + "' " + rule);
		}
	}

	/**
	 * Returns the rule a table name breaks, for a builder's report.
	 * @param tableName the name, or {@code null}
	 * @return the rule, or {@code null} when the name is valid
	 */
	public static @Nullable String nameRule(@Nullable String tableName) {
		if (tableName != null && NAME.matcher(tableName).matches()) {
			return null;
		}
		return "must be a table name or schema.name, each part matching [A-Za-z_][A-Za-z0-9_]*";
	}

	/**
	 * Returns the metadata table's name.
	 * @return the allocation table's name with {@value #META_SUFFIX} appended
	 */
	public String meta() {
		return this.allocations + META_SUFFIX;
	}

}
