package dev.crid.autoconfigure;

import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;

import dev.crid.CridLayout;
import dev.crid.CridNode;
import dev.crid.InvalidConfigException;
import dev.crid.InvalidConfigException.Violation;
import dev.crid.LayoutMismatchException;

import org.springframework.boot.convert.DurationStyle;

/**
 * Builds the {@link CridConfigurationException}s that stop start-up, each naming the
 * property, its value and the fix.
 */
final class ConfigurationFailures {

	/**
	 * The property behind each node setting, by the setting's name in crid-core's
	 * violations.
	 */
	private static final Map<String, Setting> SETTINGS = Map.of(Violation.BIT_SPLIT, new Setting(
			"crid.timestamp-bits + crid.sequence-bits", (p) -> p.getTimestampBits() + " + " + p.getSequenceBits(),
			"Choose a bit split that adds up to 63, e.g. crid.timestamp-bits=" + CridLayout.DEFAULT_TIMESTAMP_BITS
					+ " and crid.sequence-bits=" + CridLayout.DEFAULT_SEQUENCE_BITS + " (the defaults). Every node "
					+ "sharing a registry must use the same split."),
			"timestampBits",
			new Setting("crid.timestamp-bits", CridProperties::getTimestampBits,
					"Set crid.timestamp-bits between 0 and 63, adding up to 63 with crid.sequence-bits (default "
							+ CridLayout.DEFAULT_TIMESTAMP_BITS
							+ "), and large enough that the layout lasts beyond today."),
			"sequenceBits",
			new Setting("crid.sequence-bits", CridProperties::getSequenceBits,
					"Set crid.sequence-bits between 0 and 63, adding up to 63 with crid.timestamp-bits (default "
							+ CridLayout.DEFAULT_SEQUENCE_BITS + ")."),
			"epoch",
			new Setting("crid.epoch", CridProperties::getEpoch,
					"Set crid.epoch to an instant in the past, in whole seconds and ISO-8601 (default "
							+ CridLayout.DEFAULT_EPOCH + "). Every node sharing a registry must use the same epoch."),
			"blockSize",
			new Setting("crid.block-size", CridProperties::getBlockSize,
					"Set crid.block-size between 1 and 2^crid.sequence-bits (default " + CridNode.DEFAULT_BLOCK_SIZE
							+ ")."),
			"threshold",
			new Setting("crid.threshold", CridProperties::getThreshold,
					"Set crid.threshold no higher than crid.block-size (default "
							+ CridNode.DEFAULT_THRESHOLD + "); a value below 1 turns pre-allocation off."),
			"allocationTimeout",
			new Setting("crid.allocation-timeout", CridProperties::getAllocationTimeout,
					"Set crid.allocation-timeout to a positive duration of at most one day (default "
							+ DurationStyle.SIMPLE.print(CridNode.DEFAULT_ALLOCATION_TIMEOUT, ChronoUnit.SECONDS)
							+ ")."),
			"maxClockSkew",
			new Setting("crid.max-clock-skew", CridProperties::getMaxClockSkew,
					"Set crid.max-clock-skew to a positive duration (default "
							+ DurationStyle.SIMPLE.print(CridNode.DEFAULT_MAX_CLOCK_SKEW, ChronoUnit.MINUTES) + ")."),
			"runway", new Setting("crid.runway", CridProperties::getRunway,
					"Set crid.runway to a duration of at most one day, or 0 (the default) for no stock."));

	private ConfigurationFailures() {
	}

	/**
	 * Describes the node settings that crid-core refused, in terms of the properties they
	 * came from.
	 */
	static CridConfigurationException invalidNodeProperties(InvalidConfigException ex, CridProperties properties,
			boolean customized) {
		Map<String, CridConfigurationException.Property> table = new HashMap<>();
		SETTINGS
			.forEach((setting, property) -> table.put(setting, new CridConfigurationException.Property(property.name(),
					property.value().apply(properties), property.fix())));
		return CridConfigurationException.invalidSettings(ex, table, customized
				? "(A CridNodeCustomizer bean may have changed these settings after the properties were applied.)"
				: null);
	}

	/**
	 * Describes a node refused by its registry for another layout: two layouts on one
	 * registry could make the same ID. Names the node, and the configured nodes on the
	 * same table with the registry's layout.
	 * @param name the refused node's name
	 * @param properties the application's properties, {@code crid.nodes} included
	 */
	static CridConfigurationException layoutMismatch(LayoutMismatchException ex, String name,
			CridProperties properties) {
		CridLayout registry = ex.registryLayout();
		String prefix = prefix(name);
		String table = table(properties, name);
		List<String> others = new ArrayList<>();
		Stream.concat(Stream.of(CridNodes.DEFAULT_NODE), properties.getNodes().keySet().stream())
			.filter((other) -> !other.equals(name) && table.equals(table(properties, other))
					&& registry.equals(layout(properties, other)))
			.forEach((other) -> others.add(describe(other)));
		String usedBy = others.isEmpty() ? "another application or an earlier configuration"
				: String.join(" and ", others);
		// The table is named only where configured nodes share it: a registry bean of the
		// application's own may have none.
		String registryName = others.isEmpty() ? "The crid registry" : "The crid registry table '" + table + "'";
		return new CridConfigurationException(
				registryName + " is used by " + usedBy + " with another layout than that of " + describe(name)
						+ ", and IDs of the two could collide:\n\n" + "    Registry: epoch " + registry.epoch() + ", "
						+ registry.timestampBits() + " timestamp bits, " + registry.sequenceBits() + " sequence bits\n"
						+ "    " + capitalized(describe(name)) + ": epoch " + ex.nodeLayout().epoch() + ", "
						+ ex.nodeLayout().timestampBits() + " timestamp bits, " + ex.nodeLayout().sequenceBits()
						+ " sequence bits\n",
				"Give every node that shares the table the same layout: set " + prefix + "epoch=" + registry.epoch()
						+ ", " + prefix + "timestamp-bits=" + registry.timestampBits() + " and " + prefix
						+ "sequence-bits=" + registry.sequenceBits() + ", or give " + describe(name)
						+ " a table of its own (" + prefix + "registry.jdbc.table-name).",
				ex);
	}

	private static String prefix(String name) {
		return CridNodes.DEFAULT_NODE.equals(name) ? "crid." : "crid.nodes." + name + ".";
	}

	private static String describe(String name) {
		return CridNodes.DEFAULT_NODE.equals(name) ? "the default node (crid.*)"
				: "the node '" + name + "' (crid.nodes." + name + ".*)";
	}

	private static String capitalized(String text) {
		return Character.toUpperCase(text.charAt(0)) + text.substring(1);
	}

	private static CridProperties of(CridProperties properties, String name) {
		return CridNodes.DEFAULT_NODE.equals(name) ? properties : properties.forNode(name);
	}

	private static String table(CridProperties properties, String name) {
		CridProperties node = of(properties, name);
		return (node.getRegistry().getType() == CridProperties.RegistryType.R2DBC)
				? node.getRegistry().getR2dbc().getTableName() : node.getRegistry().getJdbc().getTableName();
	}

	private static CridLayout layout(CridProperties properties, String name) {
		CridProperties node = of(properties, name);
		try {
			return CridLayout.of(node.getEpoch(), node.getTimestampBits(), node.getSequenceBits());
		}
		catch (RuntimeException invalid) {
			return CridLayout.DEFAULT;
		}
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
		return new CridConfigurationException(
				"The crid configuration is invalid:\n\n"
						+ "    Property: crid.registry.type\n    Value: jdbc\n    Reason: a database registry needs a "
						+ "DataSource and crid's JDBC support, but " + String.join(", and ", reasons) + ".\n",
				"Update your application's configuration:\n    - " + String.join("\n    - ", fixes), null);
	}

	private record Setting(String name, Function<CridProperties, Object> value, String fix) {
	}

}
