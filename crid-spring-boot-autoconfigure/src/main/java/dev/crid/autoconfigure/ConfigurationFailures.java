package dev.crid.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import dev.crid.CridLayout;
import dev.crid.InvalidConfigException;
import dev.crid.LayoutMismatchException;

/**
 * Builds the {@link CridConfigurationException}s that stop start-up, each naming the property, its value
 * and the fix.
 */
final class ConfigurationFailures {

	/**
	 * The node settings that {@code crid.*} properties feed, by the name crid-core's violations start
	 * with. The combined bit rule comes first, so it is not taken for the rule of one of its parts.
	 */
	private static final List<Setting> SETTINGS = List.of(
			new Setting("timestampBits + sequenceBits", "crid.timestamp-bits + crid.sequence-bits",
					(p) -> p.getTimestampBits() + " + " + p.getSequenceBits(),
					"Choose a bit split that adds up to 63, e.g. crid.timestamp-bits=31 and crid.sequence-bits=32 "
							+ "(the defaults). Every node sharing a registry must use the same split."),
			new Setting("timestampBits", "crid.timestamp-bits", CridProperties::getTimestampBits,
					"Set crid.timestamp-bits between 0 and 63, adding up to 63 with crid.sequence-bits "
							+ "(default 31)."),
			new Setting("sequenceBits", "crid.sequence-bits", CridProperties::getSequenceBits,
					"Set crid.sequence-bits between 0 and 63, adding up to 63 with crid.timestamp-bits "
							+ "(default 32)."),
			new Setting("epoch", "crid.epoch", CridProperties::getEpoch,
					"Set crid.epoch to an instant in the past, in ISO-8601 (default 2026-01-01T00:00:00Z). Every "
							+ "node sharing a registry must use the same epoch."),
			new Setting("blockSize", "crid.block-size", CridProperties::getBlockSize,
					"Set crid.block-size between 1 and 2^crid.sequence-bits (default 10000)."),
			new Setting("threshold", "crid.threshold", CridProperties::getThreshold,
					"Set crid.threshold no higher than crid.block-size (default 5000); a value below 1 turns "
							+ "pre-allocation off."),
			new Setting("allocationTimeout", "crid.allocation-timeout", CridProperties::getAllocationTimeout,
					"Set crid.allocation-timeout to a positive duration of at most one day (default 5s)."),
			new Setting("maxClockSkew", "crid.max-clock-skew", CridProperties::getMaxClockSkew,
					"Set crid.max-clock-skew to a positive duration (default 1m)."));

	private ConfigurationFailures() {
	}

	/**
	 * Describes the node settings that crid-core refused, in terms of the properties they came from.
	 */
	static CridConfigurationException invalidNodeProperties(InvalidConfigException ex, CridProperties properties,
			boolean customized) {
		StringBuilder description = new StringBuilder("The crid configuration is invalid:\n");
		List<String> fixes = new ArrayList<>();
		for (String violation : ex.violations()) {
			Setting setting = SETTINGS.stream().filter((candidate) -> candidate.matches(violation)).findFirst().orElse(null);
			description.append('\n');
			if (setting != null) {
				description.append("    Property: ").append(setting.property).append('\n');
				description.append("    Value: ").append(setting.value.apply(properties)).append('\n');
				if (!fixes.contains(setting.fix)) {
					fixes.add(setting.fix);
				}
			}
			description.append("    Reason: ").append(violation).append('\n');
		}
		if (customized) {
			description.append("\n(A CridNodeCustomizer bean may have changed these settings after the properties "
					+ "were applied.)\n");
		}
		StringBuilder action = new StringBuilder("Update your application's configuration:");
		for (String fix : fixes) {
			action.append("\n    - ").append(fix);
		}
		if (fixes.isEmpty()) {
			action.append("\n    - Correct the settings named above.");
		}
		return new CridConfigurationException(description.toString(), action.toString(), ex);
	}

	/**
	 * Describes a node refused by its registry for another layout: two layouts on one registry could make
	 * the same ID.
	 */
	static CridConfigurationException layoutMismatch(LayoutMismatchException ex) {
		CridLayout registry = ex.registryLayout();
		return new CridConfigurationException("The crid registry is used with another layout than this "
				+ "application's, and IDs of the two could collide:\n\n    Registry: epoch " + registry.epoch() + ", "
				+ registry.timestampBits() + " timestamp bits, " + registry.sequenceBits() + " sequence bits\n"
				+ "    This node: epoch " + ex.nodeLayout().epoch() + ", " + ex.nodeLayout().timestampBits()
				+ " timestamp bits, " + ex.nodeLayout().sequenceBits() + " sequence bits\n",
				"Give every node that shares the registry the same layout: set crid.epoch=" + registry.epoch()
						+ ", crid.timestamp-bits=" + registry.timestampBits() + " and crid.sequence-bits="
						+ registry.sequenceBits() + ", or give this application a registry of its own "
						+ "(crid.registry.jdbc.table-name).",
				ex);
	}

	static CridConfigurationException jdbcRegistryUnavailable(List<String> missingArtifacts, boolean hasDataSource) {
		List<String> reasons = new ArrayList<>();
		List<String> fixes = new ArrayList<>();
		if (!missingArtifacts.isEmpty()) {
			reasons.add(String.join(", ", missingArtifacts) + " " + ((missingArtifacts.size() == 1) ? "is" : "are")
					+ " not on the classpath");
			fixes.add("Add " + String.join(", ", missingArtifacts) + " to the application's dependencies "
					+ "(dev.crid:crid-spring-boot-starter and spring-boot-starter-jdbc bring them).");
		}
		if (!hasDataSource) {
			reasons.add("the application has no DataSource bean");
			fixes.add("Configure a DataSource (spring.datasource.url and a JDBC driver, with "
					+ "spring-boot-starter-jdbc), or define your own dev.crid.Registry bean.");
		}
		fixes.add("Or set crid.registry.type to 'auto' or 'memory' (an in-memory registry: IDs unique within "
				+ "this process only).");
		return new CridConfigurationException("The crid configuration is invalid:\n\n"
				+ "    Property: crid.registry.type\n    Value: jdbc\n    Reason: a database registry needs a "
				+ "DataSource and crid's JDBC support, but " + String.join(", and ", reasons) + ".\n",
				"Update your application's configuration:\n    - " + String.join("\n    - ", fixes), null);
	}

	private static String quote(Object value) {
		return (value != null) ? "'" + value + "'" : "null";
	}

	private record Setting(String name, String property, Function<CridProperties, Object> value, String fix) {

		boolean matches(String violation) {
			return violation.startsWith(this.name + " ");
		}

	}

}
