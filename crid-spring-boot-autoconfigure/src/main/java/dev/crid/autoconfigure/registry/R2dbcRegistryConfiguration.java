package dev.crid.autoconfigure.registry;

import dev.crid.InvalidConfigException;
import dev.crid.Registry;
import dev.crid.autoconfigure.CridConfigurationException;
import dev.crid.autoconfigure.CridNodes;
import dev.crid.autoconfigure.CridProperties;
import dev.crid.autoconfigure.CridRegistryFactory;
import dev.crid.autoconfigure.NodeProperties;
import dev.crid.autoconfigure.RegistryType;
import dev.crid.autoconfigure.Setting;
import dev.crid.r2dbc.R2dbcRegistry;
import io.r2dbc.spi.ConnectionFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.boot.sql.init.dependency.DatabaseInitializationDependencyConfigurer;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * The database registry on R2DBC, on the application's {@link ConnectionFactory} (the
 * only or primary one), its tables created or checked at start-up as
 * {@code crid.registry.r2dbc.initialize-schema} asks before any node reserves a block.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnRegistryType(RegistryType.R2DBC)
@Import(DatabaseInitializationDependencyConfigurer.class)
class R2dbcRegistryConfiguration {

	@Bean
	@ConditionalOnMissingBean(Registry.class)
	R2dbcRegistry cridRegistry(ObjectProvider<ConnectionFactory> connectionFactories, CridProperties properties) {
		return registry(CridNodes.DEFAULT_NODE, connectionFactory(connectionFactories), properties);
	}

	/**
	 * Each named node's registry: on the same ConnectionFactory as the default node's, on
	 * the node's own table, prepared as the node's {@code initialize-schema} asks.
	 */
	@Bean
	@ConditionalOnMissingBean
	CridRegistryFactory cridRegistryFactory(ObjectProvider<ConnectionFactory> connectionFactories) {
		return (nodeName, nodeProperties) -> {
			ConnectionFactory connectionFactory = connectionFactory(connectionFactories);
			R2dbcRegistry registry = registry(nodeName, connectionFactory, nodeProperties);
			new R2dbcSchemaInitializer(nodeName, registry,
					nodeProperties.getRegistry().getR2dbc().getInitializeSchema(), isEmbedded(connectionFactory))
				.afterPropertiesSet();
			return registry;
		};
	}

	@Bean
	@ConditionalOnMissingBean
	R2dbcSchemaInitializer cridR2dbcSchemaInitializer(R2dbcRegistry cridRegistry,
			ObjectProvider<ConnectionFactory> connectionFactories, CridProperties properties) {
		return new R2dbcSchemaInitializer(CridNodes.DEFAULT_NODE, cridRegistry,
				properties.getRegistry().getR2dbc().getInitializeSchema(),
				isEmbedded(connectionFactory(connectionFactories)));
	}

	private static ConnectionFactory connectionFactory(ObjectProvider<ConnectionFactory> connectionFactories) {
		ConnectionFactory connectionFactory = connectionFactories.getIfUnique();
		if (connectionFactory == null) {
			throw new CridConfigurationException(
					"crid's registry on R2DBC needs a ConnectionFactory, but the application has several and none is "
							+ "@Primary, so crid cannot tell which database holds its registry table.",
					"Mark one ConnectionFactory bean @Primary, or define your own dev.crid.Registry bean, e.g. "
							+ "R2dbcRegistry.builder(theConnectionFactory).build().",
					null);
		}
		return connectionFactory;
	}

	private static boolean isEmbedded(ConnectionFactory connectionFactory) {
		return "H2".equalsIgnoreCase(connectionFactory.getMetadata().getName());
	}

	private static R2dbcRegistry registry(String node, ConnectionFactory connectionFactory, NodeProperties properties) {
		try {
			return R2dbcRegistry.builder(connectionFactory)
				.tableName(properties.getRegistry().getR2dbc().getTableName())
				.build();
		}
		catch (InvalidConfigException ex) {
			throw CridConfigurationException.refused(node, Setting.Builder.R2DBC_REGISTRY, ex);
		}
	}

}
