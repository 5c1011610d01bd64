package dev.crid.autoconfigure;

import dev.crid.CridNode;
import dev.crid.CridParser;
import dev.crid.Registry;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * Auto-configuration of the {@link CridNode} beans: the default node, configured by
 * {@code crid.*}, on the {@link Registry} bean, and each named node of
 * {@code crid.nodes.<name>}, a {@code CridNode} bean qualified by its name, on a registry
 * of its own; {@link CridNodes} finds every node by name. The registry is chosen by
 * crid's registry auto-configuration, unless the application defines its own. A user's
 * own {@code CridNode} bean replaces the default node; {@link CridRegistryDecorator}
 * beans wrap the registry each node is built with, and {@link CridNodeCustomizer} beans
 * adjust its builder. Each node checks its layout with the registry and reserves its
 * first block when it is created, after the database's initializers.
 */
@AutoConfiguration
@ConditionalOnClass(CridNode.class)
@ConditionalOnBooleanProperty(name = "crid.enabled", matchIfMissing = true)
@EnableConfigurationProperties(CridProperties.class)
@Import(CridNodesRegistrar.class)
public final class CridAutoConfiguration {

	CridAutoConfiguration() {
	}

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	CridNode cridNode(Registry registry, CridProperties properties, NodeFactory cridNodeFactory) {
		return cridNodeFactory.build(CridNodes.DEFAULT_NODE, registry, properties);
	}

	@Bean
	@ConditionalOnMissingBean
	CridParser cridParser(CridNode cridNode) {
		return cridNode.parser();
	}

}
