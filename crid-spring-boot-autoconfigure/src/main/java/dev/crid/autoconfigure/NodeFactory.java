package dev.crid.autoconfigure;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

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
 * with the registry and the first block reserved.
 */
final class NodeFactory {

	private static final Log logger = LogFactory.getLog(NodeFactory.class);

	private final CridProperties properties;

	private final NamedNodes namedNodes;

	private final ObjectProvider<CridRegistryFactory> registries;

	private final ObjectProvider<CridRegistryDecorator> decorators;

	private final ObjectProvider<CridNodeCustomizer> customizers;

	/** The registry each named node was created with, by name. */
	private final Map<String, Registry> namedRegistries = new ConcurrentHashMap<>();

	NodeFactory(CridProperties properties, NamedNodes namedNodes, ObjectProvider<CridRegistryFactory> registries,
			ObjectProvider<CridRegistryDecorator> decorators, ObjectProvider<CridNodeCustomizer> customizers) {
		this.properties = properties;
		this.namedNodes = namedNodes;
		this.registries = registries;
		this.decorators = decorators;
		this.customizers = customizers;
	}

	/**
	 * Creates the named node, on a registry of its own.
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
		NodeProperties nodeProperties = Objects.requireNonNull(this.namedNodes.get(name), name);
		Registry registry = factory.create(name, nodeProperties);
		this.namedRegistries.put(name, registry);
		return build(name, registry, nodeProperties);
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
	CridNode build(String name, Registry registry, NodeProperties nodeProperties) {
		CridNode node = newNode(name, registry, nodeProperties);
		warmUp(name, node);
		return node;
	}

	private CridNode newNode(String name, Registry registry, NodeProperties nodeProperties) {
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
			throw CridConfigurationException.refused(name, Setting.Builder.NODE, ex, ordered.isEmpty() ? null
					: "(A CridNodeCustomizer bean may have changed these settings after the properties were applied.)");
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
			throw LayoutMismatch.of(ex, name, this.properties, this.namedNodes);
		}
		catch (CridException ex) {
			logger.warn("crid could not reserve the first block of its "
					+ (CridNodes.DEFAULT_NODE.equals(name) ? "default node" : "node '" + name + "'")
					+ " at start-up; IDs are refused until the registry answers, and the health indicator reports "
					+ "it: " + ex.getMessage());
		}
	}

}
