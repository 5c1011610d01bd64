package dev.crid.autoconfigure;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

import dev.crid.CridNode;
import dev.crid.Registry;

import org.springframework.beans.factory.BeanRegistrar;
import org.springframework.beans.factory.BeanRegistry;
import org.springframework.core.env.Environment;

/**
 * Registers what every node is built with and looked up by: the {@link NodeFactory}, a
 * {@link CridNode} bean for each named node of {@code crid.nodes.<name>}, and
 * {@link CridNodes}. The named nodes are bound here, once, from the environment the
 * application runs with, ahead-of-time processed or not.
 *
 * <p>
 * A named node's bean is named {@code <name>CridNode}, with its name as an alias, so
 * {@code @Qualifier("<name>") CridNode} injects it; it is a fallback candidate, so an
 * unqualified {@code CridNode} stays the default node. It is created by
 * {@link NodeFactory#create(String)} and closed with the context.
 */
final class CridNodesRegistrar implements BeanRegistrar {

	@Override
	public void register(BeanRegistry registry, Environment environment) {
		NamedNodes namedNodes = NamedNodes.bind(environment);
		registry.registerBean("cridNodeFactory", NodeFactory.class,
				(spec) -> spec.supplier((context) -> new NodeFactory(context.bean(CridProperties.class), namedNodes,
						context.beanProvider(CridRegistryFactory.class),
						context.beanProvider(CridRegistryDecorator.class),
						context.beanProvider(CridNodeCustomizer.class))));
		for (String name : namedNodes.names()) {
			registry.registerBean(beanName(name), CridNode.class,
					(spec) -> spec.fallback().supplier((context) -> context.bean(NodeFactory.class).create(name)));
			registry.registerAlias(beanName(name), name);
		}
		registry.registerBean("cridNodes", CridNodes.class, (spec) -> spec.supplier((context) -> {
			NodeFactory factory = context.bean(NodeFactory.class);
			Map<String, Supplier<CridNode>> nodes = new LinkedHashMap<>();
			nodes.put(CridNodes.DEFAULT_NODE, context.beanProvider(CridNode.class)::getObject);
			namedNodes.names().forEach((name) -> nodes.put(name, () -> context.bean(beanName(name), CridNode.class)));
			return new CridNodes(nodes, (name) -> CridNodes.DEFAULT_NODE.equals(name)
					? context.beanProvider(Registry.class).getIfUnique() : factory.registryOf(name));
		}));
	}

	/**
	 * The name of a named node's bean: {@code <name>CridNode}.
	 */
	static String beanName(String name) {
		return name + "CridNode";
	}

}
