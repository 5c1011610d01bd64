package dev.crid.sql;

import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * What the registries read from a failure's SQLState, the same for every driver.
 */
public final class SqlStates {

	/**
	 * SQL states that mean "no such table": PostgreSQL's, the ODBC/X/Open one most
	 * databases use, H2's two variants (with suggestions, in an empty database), Derby's
	 * and SQL Server's.
	 */
	private static final Set<String> MISSING_TABLE = Set.of("42P01", "42S02", "42S03", "42S04", "42X05", "S0002");

	private SqlStates() {
	}

	/**
	 * Tells whether a SQLState says that a table does not exist.
	 * @param state the SQLState, or {@code null}
	 * @return whether a table is missing
	 */
	public static boolean isMissingTable(@Nullable String state) {
		return state != null && MISSING_TABLE.contains(state);
	}

	/**
	 * Tells whether a SQLState is a conflict with a concurrent transaction after which
	 * the database rolled back: an integrity violation (class {@code 23}: a concurrent
	 * insert of the same new row won) or a rollback (class {@code 40}: a deadlock or a
	 * serialisation failure).
	 * @param state the SQLState, or {@code null}
	 * @return whether trying again may succeed
	 */
	public static boolean isConflict(@Nullable String state) {
		return state != null && (state.startsWith("23") || state.startsWith("40"));
	}

}
