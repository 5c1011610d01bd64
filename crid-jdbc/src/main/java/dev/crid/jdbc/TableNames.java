package dev.crid.jdbc;

import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import dev.crid.InvalidConfigException.Violation;

/**
 * Checks table names before they are put into SQL. Identifiers cannot be bound as
 * parameters, so only names that cannot change a statement's meaning get through.
 */
final class TableNames {

	private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)?");

	private TableNames() {
	}

	/** Returns the rule the name breaks, or {@code null} when it is valid. */
	static @Nullable Violation violation(@Nullable String tableName) {
		if (tableName != null && NAME.matcher(tableName).matches()) {
			return null;
		}
		return new Violation("tableName", tableName,
				"must be a table name or schema.name, each part matching [A-Za-z_][A-Za-z0-9_]*");
	}

}
