package dev.crid.autoconfigure;

import java.util.List;

import dev.crid.CridException;
import dev.crid.CridNode;
import dev.crid.CridParser;
import dev.crid.InvalidConfigException;
import dev.crid.LayoutMismatchException;
import dev.crid.Registry;
import dev.crid.autoconfigure.jdbc.JdbcRegistryConfiguration;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * Auto-configuration of a {@link CridNode} and its {@link Registry}: a database registry when the
 * application has a DataSource (or {@code crid.registry.type=jdbc}), else an in-memory one. A user's own
 * {@code Registry} or {@code CridNode} bean replaces the auto-configured one; {@link CridRegistryDecorator}
 * beans wrap the registry the node is built with. The node checks its layout with the registry and
 * reserves its first block when it is created, after the database's initializers.
 */
@AutoConfiguration(afterName = "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration")
@ConditionalOnClass(CridNode.class)
@ConditionalOnBooleanProperty(name = "crid.enabled", matchIfMissing = true)
@EnableConfigurationProperties(CridProperties.class)
@Import({ JdbcRegistryConfiguration.class, RegistryConfigurations.InMemory.class,
		RegistryConfigurations.UnavailableJdbc.class })
public final class CridAutoConfiguration {

	private static final Log logger = LogFactory.getLog(CridAutoConfiguration.class);

	CridAutoConfiguration() {
	}

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	CridNode cridNode(Registry registry, CridProperties properties, ObjectProvider<CridNodeCustomizer> customizers,
			ObjectProvider<CridRegistryDecorator> decorators) {
		Registry decorated = registry;
		for (CridRegistryDecorator decorator : decorators.orderedStream().toList()) {
			decorated = decorator.decorate(CridRegistryDecorator.DEFAULT_NODE_NAME, decorated);
		}
		CridNode.Builder builder = CridNode.builder(decorated)
			.epoch(properties.getEpoch())
			.timestampBits(properties.getTimestampBits())
			.sequenceBits(properties.getSequenceBits())
			.blockSize(properties.getBlockSize())
			.threshold(properties.getThreshold())
			.allocationTimeout(properties.getAllocationTimeout())
			.maxClockSkew(properties.getMaxClockSkew());
		List<CridNodeCustomizer> ordered = customizers.orderedStream().toList();
		ordered.forEach((customizer) -> customizer.customize(builder));
		CridNode node;
		try {
			node = builder.build();
		}
		catch (InvalidConfigException ex) {
			throw ConfigurationFailures.invalidNodeProperties(ex, properties, !ordered.isEmpty());
		}
		warmUp(node);
		return node;
	}

	/**
	 * Checks the layout with the registry and reserves the first block, so the first requests find IDs in
	 * memory and never need a pooled connection for them. The node is created after the database's
	 * initializers, so its table is ready. A registry used with another layout stops start-up; a registry
	 * that does not answer does not (it may come up later): the failure is logged, the health indicator
	 * reports it, and the node keeps trying when IDs are asked for.
	 */
	private static void warmUp(CridNode node) {
		try {
			node.warmUp();
		}
		catch (LayoutMismatchException ex) {
			node.close();
			throw ConfigurationFailures.layoutMismatch(ex);
		}
		catch (CridException ex) {
			logger.warn("crid could not reserve its first block at start-up; IDs are refused until the registry "
					+ "answers, and the health indicator reports it: " + ex.getMessage());
		}
	}

	@Bean
	@ConditionalOnMissingBean
	CridParser cridParser(CridNode cridNode) {
		return cridNode.parser();
	}

}
