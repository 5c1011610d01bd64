package dev.crid.autoconfigure;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

import dev.crid.CridNode;
import dev.crid.CridParser;
import dev.crid.Registry;
import dev.crid.autoconfigure.jdbc.JdbcRegistryConfiguration;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;

/**
 * Auto-configuration of a {@link CridNode} and its {@link Registry}: a database registry
 * when the application has a DataSource (or {@code crid.registry.type=jdbc}), else an
 * in-memory one. A user's own {@code Registry} or {@code CridNode} bean replaces the
 * auto-configured one; {@link CridRegistryDecorator} beans wrap the registry the node is
 * built with. The node checks its layout with the registry and reserves its first block
 * when it is created, after the database's initializers. Each named node of
 * {@code crid.nodes.<name>} is a {@code CridNode} bean qualified by its name, on a
 * registry of its own; {@link CridNodes} finds every node by name.
 */
@AutoConfiguration(afterName = "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration")
@ConditionalOnClass(CridNode.class)
@ConditionalOnBooleanProperty(name = "crid.enabled", matchIfMissing = true)
@EnableConfigurationProperties(CridProperties.class)
@Import({ JdbcRegistryConfiguration.class, RegistryConfigurations.InMemory.class,
		RegistryConfigurations.UnavailableJdbc.class })
public final class CridAutoConfiguration {

	CridAutoConfiguration() {
	}

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	CridNode cridNode(Registry registry, CridProperties properties, NodeFactory cridNodeFactory) {
		return cridNodeFactory.build(CridNodes.DEFAULT_NODE, registry, properties);
	}

	@Bean(NamedNodesRegistrar.FACTORY_BEAN)
	NodeFactory cridNodeFactory(CridProperties properties, ObjectProvider<CridRegistryFactory> registries,
			ObjectProvider<CridRegistryDecorator> decorators, ObjectProvider<CridNodeCustomizer> customizers) {
		return new NodeFactory(properties, registries, decorators, customizers);
	}

	@Bean
	static NamedNodesRegistrar cridNamedNodesRegistrar(Environment environment) {
		return new NamedNodesRegistrar(environment);
	}

	@Bean
	@ConditionalOnMissingBean
	CridNodes cridNodes(ObjectProvider<CridNode> cridNode, ObjectProvider<Registry> registry,
			NodeFactory cridNodeFactory, ListableBeanFactory beanFactory, Environment environment) {
		Map<String, Supplier<CridNode>> nodes = new LinkedHashMap<>();
		nodes.put(CridNodes.DEFAULT_NODE, cridNode::getObject);
		for (String name : NamedNodesRegistrar.bind(environment).keySet()) {
			nodes.put(name, () -> beanFactory.getBean(NamedNodesRegistrar.beanName(name), CridNode.class));
		}
		return new CridNodes(nodes, (name) -> CridNodes.DEFAULT_NODE.equals(name) ? registry.getIfUnique()
				: cridNodeFactory.registryOf(name));
	}

	@Bean
	@ConditionalOnMissingBean
	CridParser cridParser(CridNode cridNode) {
		return cridNode.parser();
	}

}
