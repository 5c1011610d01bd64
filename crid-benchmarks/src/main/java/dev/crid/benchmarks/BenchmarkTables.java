package dev.crid.benchmarks;

import java.util.regex.Pattern;

import org.hibernate.boot.model.naming.Identifier;
import org.hibernate.boot.model.naming.PhysicalNamingStrategyStandardImpl;
import org.hibernate.engine.jdbc.env.spi.JdbcEnvironment;

/**
 * The names of the tables (and the sequence) the benchmarks create: the names in the
 * code, followed by the suffix in the system property {@value #SUFFIX_PROPERTY}, if set.
 * Two runs that share a database (a build's smoke test beside another's) give themselves
 * different suffixes, so that neither meets, or drops, the other's tables.
 */
public final class BenchmarkTables {

	/**
	 * System property holding the suffix: lower-case letters, digits and underscores, up
	 * to 16.
	 */
	public static final String SUFFIX_PROPERTY = "crid.benchmarks.tableSuffix";

	private static final Pattern SUFFIX = Pattern.compile("[a-z0-9_]{0,16}");

	private BenchmarkTables() {
	}

	/**
	 * The name a table named {@code base} in the code has in the database.
	 * @param base the table's name in the code
	 * @return the name with the suffix
	 * @throws IllegalArgumentException if the suffix property holds anything but what a
	 * table name may end with
	 */
	public static String named(String base) {
		String suffix = System.getProperty(SUFFIX_PROPERTY, "");
		if (!SUFFIX.matcher(suffix).matches()) {
			throw new IllegalArgumentException(SUFFIX_PROPERTY + " must be up to 16 lower-case letters, digits or "
					+ "underscores, but is \"" + suffix + "\"");
		}
		return base + suffix;
	}

	/**
	 * Gives the JPA benchmark's tables and sequence their names in the database:
	 * Hibernate's standard naming, with {@link #named} applied.
	 */
	static final class NamingStrategy extends PhysicalNamingStrategyStandardImpl {

		@Override
		public Identifier toPhysicalTableName(Identifier logicalName, JdbcEnvironment environment) {
			return suffixed(logicalName);
		}

		@Override
		public Identifier toPhysicalSequenceName(Identifier logicalName, JdbcEnvironment environment) {
			return suffixed(logicalName);
		}

		private static Identifier suffixed(Identifier name) {
			return (name == null) ? null : Identifier.toIdentifier(named(name.getText()), name.isQuoted());
		}

	}

}
