package dev.crid.autoconfigure.jdbc;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Map;

import dev.crid.InvalidConfigException;
import dev.crid.autoconfigure.CridConfigurationException;
import dev.crid.autoconfigure.CridConfigurationException.Property;
import dev.crid.autoconfigure.CridProperties;
import dev.crid.jdbc.JdbcTemplateRegistry;

import org.springframework.boot.convert.DurationStyle;

/**
 * Builds the {@link CridConfigurationException}s of the database registry that stop
 * start-up, each naming the property, its value and the fix.
 */
final class JdbcConfigurationFailures {

	private static final String RETENTION_FIX = "Set crid.registry.jdbc.retention to a duration of at least a second "
			+ "and longer than crid.max-clock-skew, e.g. "
			+ DurationStyle.SIMPLE.print(JdbcTemplateRegistry.DEFAULT_RETENTION, ChronoUnit.DAYS)
			+ " (the default), or to 0 to keep every row.";

	private JdbcConfigurationFailures() {
	}

	/**
	 * Describes the database registry settings that crid-jdbc refused, in terms of the
	 * properties they came from.
	 */
	static CridConfigurationException invalidRegistryProperties(CridProperties.JdbcProperties jdbc,
			InvalidConfigException ex) {
		return CridConfigurationException.invalidSettings(ex, Map.of("tableName",
				new Property("crid.registry.jdbc.table-name", quote(jdbc.getTableName()),
						"Set crid.registry.jdbc.table-name to a table name, optionally schema-qualified ('name' or "
								+ "'schema.name', each part letters, digits and underscores, not starting with a "
								+ "digit), e.g. " + JdbcTemplateRegistry.DEFAULT_TABLE_NAME + " (the default)."),
				"queryTimeout",
				new Property("crid.registry.jdbc.query-timeout", jdbc.getQueryTimeout(),
						"Set crid.registry.jdbc.query-timeout to a positive duration, e.g. " + DurationStyle.SIMPLE
							.print(JdbcTemplateRegistry.DEFAULT_QUERY_TIMEOUT, ChronoUnit.SECONDS) + " (the default)."),
				"retention", new Property("crid.registry.jdbc.retention", jdbc.getRetention(), RETENTION_FIX)), null);
	}

	/**
	 * Describes a retention no longer than the clock skew allowed: a node whose clock is
	 * within the skew allowed could be refused seconds that another node already evicted.
	 */
	static CridConfigurationException retentionWithinClockSkew(Duration retention, Duration maxClockSkew) {
		return new CridConfigurationException(
				"The crid configuration is invalid:\n\n" + "    Property: crid.registry.jdbc.retention\n    Value: "
						+ retention + "\n    Reason: it must exceed " + "crid.max-clock-skew (" + maxClockSkew
						+ "): a node whose clock lags within the skew allowed would "
						+ "be refused seconds that a node ahead of it has evicted.\n",
				"Update your application's configuration:\n    - " + RETENTION_FIX, null);
	}

	static CridConfigurationException missingTable(String tableName, String scriptLocation, String script,
			CridProperties.SchemaInitialization mode, String databaseProduct, Throwable cause) {
		String why = (mode == CridProperties.SchemaInitialization.NEVER)
				? "crid.registry.jdbc.initialize-schema is 'never'"
				: "crid.registry.jdbc.initialize-schema is 'embedded' and " + databaseProduct
						+ " is not an embedded database";
		return new CridConfigurationException(
				"The crid registry table " + quote(tableName) + " does not exist, and crid did not create it because "
						+ why + ".\n\n" + "    Property: crid.registry.jdbc.initialize-schema\n    Value: "
						+ mode.name().toLowerCase(Locale.ROOT) + "\n",
				"Create the table by running this script (" + scriptLocation + " in crid-jdbc):\n\n" + indent(script)
						+ "\n\nor add it to your Flyway or Liquibase migrations, "
						+ "or let crid create it at start-up: set crid.registry.jdbc.initialize-schema=always.",
				cause);
	}

	private static String indent(String text) {
		return "    " + text.strip().replace("\n", "\n    ");
	}

	private static String quote(Object value) {
		return (value != null) ? "'" + value + "'" : "null";
	}

}
