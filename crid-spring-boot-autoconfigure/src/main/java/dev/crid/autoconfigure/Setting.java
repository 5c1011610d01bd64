package dev.crid.autoconfigure;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;

import dev.crid.CridLayout;
import dev.crid.CridNode;
import dev.crid.InvalidConfigException;
import dev.crid.etcd.EtcdRegistry;
import dev.crid.jdbc.JdbcTemplateRegistry;

import org.jspecify.annotations.Nullable;

/**
 * A setting that configuration can get wrong: the property it is read from, under the
 * prefix of the node it belongs to ({@code crid.} or {@code crid.nodes.<name>.}), and how
 * to set it right. It is also the one place that knows which builder setting of crid-core
 * and crid-jdbc each property sets, by the name their {@link InvalidConfigException}s
 * give it.
 */
public enum Setting {

	/** {@code epoch}. */
	EPOCH(Builder.NODE, "epoch", "epoch",
			(p) -> "Set " + p + "epoch to an instant in the past, in whole seconds and ISO-8601 (default "
					+ CridLayout.DEFAULT_EPOCH + "). Every node sharing a registry must use the same epoch."),

	/** {@code timestamp-bits}. */
	TIMESTAMP_BITS(Builder.NODE, "timestampBits", "timestamp-bits",
			(p) -> "Set " + p + "timestamp-bits between 0 and 63, adding up to 63 with " + p + "sequence-bits (default "
					+ CridLayout.DEFAULT_TIMESTAMP_BITS + "), and large enough that the layout lasts beyond today."),

	/** {@code sequence-bits}. */
	SEQUENCE_BITS(Builder.NODE, "sequenceBits", "sequence-bits",
			(p) -> "Set " + p + "sequence-bits between 0 and 63, adding up to 63 with " + p + "timestamp-bits (default "
					+ CridLayout.DEFAULT_SEQUENCE_BITS + ")."),

	/** The rule that {@code timestamp-bits} and {@code sequence-bits} add up to 63. */
	BIT_SPLIT(Builder.NODE, InvalidConfigException.Violation.BIT_SPLIT, List.of("timestamp-bits", "sequence-bits"),
			(p) -> "Choose a bit split that adds up to 63, e.g. " + p + "timestamp-bits="
					+ CridLayout.DEFAULT_TIMESTAMP_BITS + " and " + p + "sequence-bits="
					+ CridLayout.DEFAULT_SEQUENCE_BITS
					+ " (the defaults). Every node sharing a registry must use the same split."),

	/** {@code block-size}. */
	BLOCK_SIZE(Builder.NODE, "blockSize", "block-size",
			(p) -> "Set " + p + "block-size between 1 and 2^" + p + "sequence-bits (default "
					+ CridNode.DEFAULT_BLOCK_SIZE + ")."),

	/** {@code threshold}. */
	THRESHOLD(Builder.NODE, "threshold", "threshold",
			(p) -> "Set " + p + "threshold no higher than " + p + "block-size (default " + CridNode.DEFAULT_THRESHOLD
					+ "); a value below 1 turns prefetching off."),

	/** {@code allocation-timeout}. */
	ALLOCATION_TIMEOUT(Builder.NODE, "allocationTimeout", "allocation-timeout",
			(p) -> "Set " + p + "allocation-timeout to a positive duration of at most one day (default "
					+ CridNode.DEFAULT_ALLOCATION_TIMEOUT.toSeconds() + "s)."),

	/** {@code max-clock-skew}. */
	MAX_CLOCK_SKEW(Builder.NODE, "maxClockSkew", "max-clock-skew",
			(p) -> "Set " + p + "max-clock-skew to a positive duration (default "
					+ CridNode.DEFAULT_MAX_CLOCK_SKEW.toMinutes() + "m)."),

	/** {@code runway}. */
	RUNWAY(Builder.NODE, "runway", "runway",
			(p) -> "Set " + p + "runway to a duration of at most one day, or 0 (the default) for no stock."),

	/** {@code registry.type}. */
	REGISTRY_TYPE(null, null, "registry.type",
			(p) -> "Give the application what the registry of " + p + "registry.type needs, or set it to another "
					+ "kind: auto (the default) takes the first the application can have of etcd (when "
					+ "crid.registry.etcd.endpoints is set), jdbc, r2dbc and memory. "
					+ "A named node leaves it unset: it reserves in the default node's kind of registry."),

	/** {@code registry.jdbc.table-name}. */
	JDBC_TABLE_NAME(Builder.JDBC_REGISTRY, "tableName", "registry.jdbc.table-name",
			(p) -> "Set " + p + "registry.jdbc.table-name to a table name, optionally schema-qualified ('name' or "
					+ "'schema.name', each part letters, digits and underscores, not starting with a digit), e.g. "
					+ JdbcTemplateRegistry.DEFAULT_TABLE_NAME + " (the default)."),

	/** {@code registry.jdbc.initialize-schema}. */
	JDBC_INITIALIZE_SCHEMA(null, null, "registry.jdbc.initialize-schema",
			(p) -> "Create the table with the statements below, from Flyway, Liquibase or spring.sql.init scripts, "
					+ "or let crid create it at start-up: set " + p + "registry.jdbc.initialize-schema=always."),

	/** {@code registry.jdbc.query-timeout}. */
	JDBC_QUERY_TIMEOUT(Builder.JDBC_REGISTRY, "queryTimeout", "registry.jdbc.query-timeout",
			(p) -> "Set " + p + "registry.jdbc.query-timeout to a positive duration, e.g. "
					+ JdbcTemplateRegistry.DEFAULT_QUERY_TIMEOUT_SECONDS + "s (the default)."),

	/** {@code registry.jdbc.retention}. */
	JDBC_RETENTION(Builder.JDBC_REGISTRY, "retention", "registry.jdbc.retention",
			(p) -> "Set " + p + "registry.jdbc.retention to a duration of at least a second and longer than " + p
					+ "max-clock-skew, e.g. " + JdbcTemplateRegistry.DEFAULT_RETENTION_DAYS
					+ "d (the default), or to 0 to keep every row."),

	/** {@code registry.jdbc.dialect}. */
	JDBC_DIALECT(null, null, "registry.jdbc.dialect",
			(p) -> "Set " + p + "registry.jdbc.dialect to " + RegistryProperties.Jdbc.AUTO_DIALECT
					+ " (the default: detected from the database) or to a dialect named above."),

	/** {@code registry.r2dbc.table-name}. */
	R2DBC_TABLE_NAME(Builder.R2DBC_REGISTRY, "tableName", "registry.r2dbc.table-name",
			(p) -> "Set " + p + "registry.r2dbc.table-name to a table name, optionally schema-qualified ('name' or "
					+ "'schema.name', each part letters, digits and underscores, not starting with a digit)."),

	/** {@code registry.r2dbc.initialize-schema}. */
	R2DBC_INITIALIZE_SCHEMA(null, null, "registry.r2dbc.initialize-schema",
			(p) -> "Create the tables with the statements below, from Flyway, Liquibase or spring.sql.init scripts, "
					+ "or let crid create them at start-up: set " + p + "registry.r2dbc.initialize-schema=always."),

	/** {@code registry.etcd.endpoints}. */
	ETCD_ENDPOINTS(null, null, "registry.etcd.endpoints",
			(p) -> "Set " + p + "registry.etcd.endpoints to the client URLs of every member of the etcd cluster, e.g. "
					+ "http://etcd-1:2379,http://etcd-2:2379,http://etcd-3:2379 (for TLS, define an EtcdRegistry "
					+ "bean of your own on a jetcd Client you build). A named node leaves it unset: every node "
					+ "reserves through the default node's client."),

	/** {@code registry.etcd.key-prefix}. */
	ETCD_KEY_PREFIX(Builder.ETCD_REGISTRY, "keyPrefix", "registry.etcd.key-prefix",
			(p) -> "Set " + p + "registry.etcd.key-prefix to a prefix that is not empty and holds no control "
					+ "characters, e.g. " + EtcdRegistry.DEFAULT_KEY_PREFIX + " (the default)."),

	/**
	 * The rule that {@code registry.etcd.username} and {@code registry.etcd.password} are
	 * set together.
	 */
	ETCD_CREDENTIALS(null, null, List.of("registry.etcd.username", "registry.etcd.password"),
			(p) -> "Set both " + p + "registry.etcd.username and " + p + "registry.etcd.password for a cluster "
					+ "with authentication on, or neither. A named node leaves them unset: every node reserves "
					+ "through the default node's client."),

	/** {@code registry.etcd.timeout}. */
	ETCD_TIMEOUT(Builder.ETCD_REGISTRY, "timeout", "registry.etcd.timeout",
			(p) -> "Set " + p + "registry.etcd.timeout to a positive duration of at most one day, below " + p
					+ "allocation-timeout, e.g. " + EtcdRegistry.DEFAULT_TIMEOUT_SECONDS + "s (the default)."),

	/** {@code registry.etcd.retention}. */
	ETCD_RETENTION(Builder.ETCD_REGISTRY, "retention", "registry.etcd.retention",
			(p) -> "Set " + p + "registry.etcd.retention to a duration of at least a second and longer than " + p
					+ "max-clock-skew, e.g. " + EtcdRegistry.DEFAULT_RETENTION_DAYS
					+ "d (the default), or to 0 to keep every key."),

	/** The name of a named node: the key under {@code crid.nodes}. */
	NODE_NAME(null, null, List.of(),
			(p) -> "Name the node with letters, digits and underscores, starting with a letter and other than '"
					+ CridNodes.DEFAULT_NODE + "', e.g. crid.nodes.public.timestamp-bits=41; set the default node's "
					+ "properties under crid.* itself."),

	/** {@code crid.id-format}, a setting of the application as a whole. */
	ID_FORMAT(null, null, "id-format",
			(p) -> "Remove crid.jackson.ids-as-strings=false, so that @Crid properties are base32 strings too, or set "
					+ "crid.id-format=decimal to keep them JSON numbers."),

	/**
	 * A setting of a builder that no property sets, as a {@link CridNodeCustomizer} may
	 * set it.
	 */
	CUSTOMIZED(null, null, List.of(), (p) -> "Correct what the application's CridNodeCustomizer beans set.");

	private final @Nullable Builder builder;

	private final @Nullable String builderSetting;

	private final List<String> keys;

	private final UnaryOperator<String> fix;

	Setting(@Nullable Builder builder, @Nullable String builderSetting, String key, UnaryOperator<String> fix) {
		this(builder, builderSetting, List.of(key), fix);
	}

	Setting(@Nullable Builder builder, @Nullable String builderSetting, List<String> keys, UnaryOperator<String> fix) {
		this.builder = builder;
		this.builderSetting = builderSetting;
		this.keys = keys;
		this.fix = fix;
	}

	/**
	 * Returns the setting a builder's violation names.
	 * @param builder the builder that refused it
	 * @param violation what it refused
	 * @return the setting, or {@link #CUSTOMIZED} for a setting that no property sets
	 */
	public static Setting of(Builder builder, InvalidConfigException.Violation violation) {
		return Arrays.stream(values())
			.filter((setting) -> setting.builder == builder && violation.setting().equals(setting.builderSetting))
			.findFirst()
			.orElse(CUSTOMIZED);
	}

	/**
	 * Returns the properties this setting is read from, for the node of the given name:
	 * one, or two for a rule between two properties; none for {@link #CUSTOMIZED}.
	 * @param node the node's name, {@value CridNodes#DEFAULT_NODE} for the default node
	 * and for the settings of the application as a whole
	 * @return the full property names
	 */
	public List<String> properties(String node) {
		if (this == NODE_NAME) {
			return List.of("crid.nodes." + node);
		}
		String prefix = prefix(node);
		return this.keys.stream().map((key) -> prefix + key).toList();
	}

	/**
	 * Returns how to set this setting right, for the node of the given name.
	 * @param node the node's name, {@value CridNodes#DEFAULT_NODE} for the default node
	 * @return the fix, a sentence or two
	 */
	public String fix(String node) {
		return Objects.requireNonNull(this.fix.apply(prefix(node)));
	}

	private String prefix(String node) {
		return (this == ID_FORMAT || CridNodes.DEFAULT_NODE.equals(node)) ? "crid." : "crid.nodes." + node + ".";
	}

	/**
	 * The builders whose {@link InvalidConfigException}s name settings.
	 */
	public enum Builder {

		/** {@code CridNode.Builder} and {@code CridLayout.of}. */
		NODE,

		/** {@code JdbcTemplateRegistry.Builder}. */
		JDBC_REGISTRY,

		/** The R2DBC registry's builder. */
		R2DBC_REGISTRY,

		/** The etcd registry's builder. */
		ETCD_REGISTRY

	}

}
