package dev.crid.autoconfigure;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.crid.CridException;
import dev.crid.CridNode;
import dev.crid.InvalidConfigException;
import dev.crid.LayoutMismatchException;
import dev.crid.Registry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;

/**
 * Builds the auto-configured nodes, the default one and each named one, the same way: the
 * properties applied, the registry decorated, the customizers run, the layout checked
 * with the registry and the first block reserved. A configuration error of a named node
 * names that node's properties ({@code crid.nodes.<name>.*}).
 */
final class NodeFactory {

	private static final Log logger = LogFactory.getLog(CridAutoConfiguration.class);

	/** A property of a node, {@code crid.} not part of a longer name. */
	private static final Pattern NODE_PROPERTY = Pattern.compile("(?<![\\w.-])crid\\.(?!nodes\\.)");

	private final CridProperties properties;

	private final ObjectProvider<CridRegistryFactory> registries;

	private final ObjectProvider<CridRegistryDecorator> decorators;

	private final ObjectProvider<CridNodeCustomizer> customizers;

	/** The registry each named node was created with, by name. */
	private final Map<String, Registry> namedRegistries = new ConcurrentHashMap<>();

	NodeFactory(CridProperties properties, ObjectProvider<CridRegistryFactory> registries,
			ObjectProvider<CridRegistryDecorator> decorators, ObjectProvider<CridNodeCustomizer> customizers) {
		this.properties = properties;
		this.registries = registries;
		this.decorators = decorators;
		this.customizers = customizers;
	}

	/**
	 * Creates the named node, on a registry of its own. Called by the named nodes' bean
	 * definitions (see {@link NamedNodesRegistrar}).
	 * @param name the node's name, a key of {@code crid.nodes}
	 */
	CridNode create(String name) {
		CridRegistryFactory factory = this.registries.getIfAvailable();
		if (factory == null) {
			throw new CridConfigurationException("crid.nodes." + name + " names a node, but the application "
					+ "defines its own dev.crid.Registry bean, so crid cannot tell where that node reserves its "
					+ "blocks.",
					"Define a dev.crid.autoconfigure.CridRegistryFactory bean that creates each named node's "
							+ "registry, or remove crid.nodes." + name + " and the application's own Registry bean.",
					null);
		}
		CridProperties nodeProperties = this.properties.forNode(name);
		CridNode node;
		try {
			Registry registry = factory.create(name, nodeProperties);
			this.namedRegistries.put(name, registry);
			node = newNode(name, registry, nodeProperties);
		}
		catch (CridConfigurationException ex) {
			throw forNamedNode(ex, name);
		}
		warmUp(name, node);
		return node;
	}

	/**
	 * Returns the registry a named node was created with, or {@code null} before it is
	 * created.
	 */
	@Nullable Registry registryOf(String name) {
		return this.namedRegistries.get(name);
	}

	/**
	 * Builds a node on the given registry and reserves its first block.
	 * @param name the node's name, {@link CridNodes#DEFAULT_NODE} for the default node
	 */
	CridNode build(String name, Registry registry, CridProperties nodeProperties) {
		CridNode node = newNode(name, registry, nodeProperties);
		warmUp(name, node);
		return node;
	}

	private CridNode newNode(String name, Registry registry, CridProperties nodeProperties) {
		Registry decorated = registry;
		for (CridRegistryDecorator decorator : this.decorators.orderedStream().toList()) {
			decorated = decorator.decorate(name, decorated);
		}
		CridNode.Builder builder = CridNode.builder(decorated)
			.epoch(nodeProperties.getEpoch())
			.timestampBits(nodeProperties.getTimestampBits())
			.sequenceBits(nodeProperties.getSequenceBits())
			.blockSize(nodeProperties.getBlockSize())
			.threshold(nodeProperties.getThreshold())
			.allocationTimeout(nodeProperties.getAllocationTimeout())
			.maxClockSkew(nodeProperties.getMaxClockSkew())
			.runway(nodeProperties.getRunway());
		List<CridNodeCustomizer> ordered = this.customizers.orderedStream().toList();
		ordered.forEach((customizer) -> customizer.customize(name, builder));
		try {
			return builder.build();
		}
		catch (InvalidConfigException ex) {
			throw ConfigurationFailures.invalidNodeProperties(ex, nodeProperties, !ordered.isEmpty());
		}
	}

	/**
	 * Checks the layout with the registry and reserves the first block, so the first
	 * requests find IDs in memory and never need a pooled connection for them. The node
	 * is created after the database's initializers, so its table is ready. A registry
	 * used with another layout stops start-up; a registry that does not answer does not
	 * (it may come up later): the failure is logged, the health indicator reports it, and
	 * the node keeps trying when IDs are asked for.
	 */
	private void warmUp(String name, CridNode node) {
		try {
			node.warmUp();
		}
		catch (LayoutMismatchException ex) {
			node.close();
			throw ConfigurationFailures.layoutMismatch(ex, name, this.properties);
		}
		catch (CridException ex) {
			logger.warn("crid could not reserve the first block of its " + describe(name) + " at start-up; IDs "
					+ "are refused until the registry answers, and the health indicator reports it: "
					+ ex.getMessage());
		}
	}

	private static String describe(String name) {
		return CridNodes.DEFAULT_NODE.equals(name) ? "default node" : "node '" + name + "'";
	}

	/**
	 * The failure with every node property named as the named node's
	 * ({@code crid.nodes.<name>.*}).
	 */
	private static CridConfigurationException forNamedNode(CridConfigurationException ex, String name) {
		String prefix = Matcher.quoteReplacement("crid.nodes." + name + ".");
		return new CridConfigurationException(NODE_PROPERTY.matcher(ex.description()).replaceAll(prefix),
				NODE_PROPERTY.matcher(ex.action()).replaceAll(prefix), ex.getCause());
	}

}
