package dev.crid.autoconfigure;

import java.util.List;

import dev.crid.CridNode;
import dev.crid.CridParser;
import dev.crid.InvalidConfigException;
import dev.crid.Registry;
import dev.crid.autoconfigure.jdbc.JdbcRegistryConfiguration;

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
 * {@code Registry} or {@code CridNode} bean replaces the auto-configured one. Once every bean exists, the
 * node checks its layout with the registry and reserves its first block ({@link CridNodeWarmUp}).
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
	CridNode cridNode(Registry registry, CridProperties properties, ObjectProvider<CridNodeCustomizer> customizers,
			ObjectProvider<RegistryGuard> guards) {
		RegistryGuard guard = guards.getIfUnique();
		CridNode.Builder builder = CridNode.builder((guard != null) ? guard.guard(registry) : registry)
			.epoch(properties.getEpoch())
			.timestampBits(properties.getTimestampBits())
			.sequenceBits(properties.getSequenceBits())
			.blockSize(properties.getBlockSize())
			.threshold(properties.getThreshold())
			.allocationTimeout(properties.getAllocationTimeout())
			.maxClockSkew(properties.getMaxClockSkew());
		List<CridNodeCustomizer> ordered = customizers.orderedStream().toList();
		ordered.forEach((customizer) -> customizer.customize(builder));
		try {
			return builder.build();
		}
		catch (InvalidConfigException ex) {
			throw ConfigurationFailures.invalidNodeProperties(ex, properties, !ordered.isEmpty());
		}
	}

	@Bean
	@ConditionalOnMissingBean
	CridParser cridParser(CridNode cridNode) {
		return cridNode.parser();
	}

	@Bean
	@ConditionalOnMissingBean
	CridNodeWarmUp cridNodeWarmUp(ObjectProvider<CridNode> cridNode) {
		return new CridNodeWarmUp(cridNode);
	}

}
