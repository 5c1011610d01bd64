package dev.crid.autoconfigure.data.r2dbc;

import dev.crid.CridNode;
import dev.crid.InvalidConfigException;
import dev.crid.Registry;
import dev.crid.autoconfigure.CridAutoConfiguration;
import dev.crid.autoconfigure.CridConfigurationException;
import dev.crid.autoconfigure.CridProperties;
import dev.crid.autoconfigure.CridRegistryFactory;
import dev.crid.data.r2dbc.R2dbcRegistry;
import io.r2dbc.spi.ConnectionFactory;

import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * Auto-configuration of the crid registry on R2DBC: an {@link R2dbcRegistry} on the
 * application's {@link ConnectionFactory} when {@code crid.registry.type=r2dbc}, or
 * {@code auto} (the default) and the application has a ConnectionFactory but no
 * DataSource. It runs before {@link CridAutoConfiguration}, whose node then reserves its
 * blocks in it; a user's own {@link Registry} bean replaces it. Its tables are created or
 * checked at start-up by {@code crid.registry.r2dbc.initialize-schema}.
 */
@AutoConfiguration(before = CridAutoConfiguration.class,
		afterName = { "org.springframework.boot.r2dbc.autoconfigure.R2dbcAutoConfiguration",
				"org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration" })
@ConditionalOnClass(CridNode.class)
@ConditionalOnBooleanProperty(name = "crid.enabled", matchIfMissing = true)
@EnableConfigurationProperties(CridProperties.class)
@Import({ CridR2dbcRegistryAutoConfiguration.OnConnectionFactory.class,
		CridR2dbcRegistryAutoConfiguration.Unavailable.class })
public final class CridR2dbcRegistryAutoConfiguration {

	static final String REGISTRY_CLASS = "dev.crid.data.r2dbc.R2dbcRegistry";

	static final String CONNECTION_FACTORY_CLASS = "io.r2dbc.spi.ConnectionFactory";

	CridR2dbcRegistryAutoConfiguration() {
	}

	/**
	 * The registry on the application's ConnectionFactory.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = { REGISTRY_CLASS, CONNECTION_FACTORY_CLASS, "reactor.core.publisher.Mono" })
	@Conditional(R2dbcRegistryCondition.class)
	@ConditionalOnBean(type = CONNECTION_FACTORY_CLASS)
	@ConditionalOnMissingBean(Registry.class)
	static class OnConnectionFactory {

		@Bean
		@ConditionalOnMissingBean(Registry.class)
		R2dbcRegistry cridRegistry(ObjectProvider<ConnectionFactory> connectionFactories, CridProperties properties) {
			return registry(connectionFactory(connectionFactories), properties);
		}

		/**
		 * Each named node's registry: on the same ConnectionFactory as the default
		 * node's, on the node's own table, prepared as the node's
		 * {@code initialize-schema} asks.
		 */
		@Bean
		@ConditionalOnMissingBean(CridRegistryFactory.class)
		CridRegistryFactory cridR2dbcRegistryFactory(ObjectProvider<ConnectionFactory> connectionFactories) {
			return (nodeName, nodeProperties) -> {
				ConnectionFactory connectionFactory = connectionFactory(connectionFactories);
				R2dbcRegistry registry = registry(connectionFactory, nodeProperties);
				new R2dbcSchemaInitializer(registry, nodeProperties.getRegistry().getR2dbc().getInitializeSchema(),
						isEmbedded(connectionFactory))
					.afterSingletonsInstantiated();
				return registry;
			};
		}

		private static ConnectionFactory connectionFactory(ObjectProvider<ConnectionFactory> connectionFactories) {
			ConnectionFactory connectionFactory = connectionFactories.getIfUnique();
			if (connectionFactory == null) {
				throw new CridConfigurationException(
						"The application has several ConnectionFactory beans and none is @Primary, so crid cannot tell "
								+ "which database holds its registry table.",
						"Mark one ConnectionFactory bean @Primary, or define your own dev.crid.Registry bean, e.g. "
								+ "R2dbcRegistry.builder(theConnectionFactory).build().",
						null);
			}
			return connectionFactory;
		}

		private static boolean isEmbedded(@Nullable ConnectionFactory connectionFactory) {
			return connectionFactory != null && "H2".equalsIgnoreCase(connectionFactory.getMetadata().getName());
		}

		private static R2dbcRegistry registry(ConnectionFactory connectionFactory, CridProperties properties) {
			CridProperties.R2dbcProperties r2dbc = properties.getRegistry().getR2dbc();
			try {
				return R2dbcRegistry.builder(connectionFactory).tableName(r2dbc.getTableName()).build();
			}
			catch (InvalidConfigException ex) {
				throw new CridConfigurationException(
						"The crid registry on R2DBC cannot be built from crid.registry.r2dbc.table-name="
								+ r2dbc.getTableName() + ": "
								+ ex.violations()
									.stream()
									.map(InvalidConfigException.Violation::message)
									.collect(java.util.stream.Collectors.joining("; ")),
						"Set crid.registry.r2dbc.table-name to a table name or schema.name, each part matching "
								+ "[A-Za-z_][A-Za-z0-9_]*, on a PostgreSQL, MariaDB or H2 database; or set "
								+ "crid.registry.type to jdbc or memory.",
						ex);
			}
		}

		@Bean
		@ConditionalOnMissingBean
		R2dbcSchemaInitializer cridR2dbcSchemaInitializer(R2dbcRegistry cridRegistry,
				ObjectProvider<ConnectionFactory> connectionFactories, CridProperties properties) {
			return new R2dbcSchemaInitializer(cridRegistry, properties.getRegistry().getR2dbc().getInitializeSchema(),
					isEmbedded(connectionFactories.getIfUnique()));
		}

	}

	/**
	 * {@code crid.registry.type=r2dbc} when the registry on R2DBC could not be set up:
	 * fails start-up with the reason.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnProperty(name = "crid.registry.type", havingValue = "r2dbc")
	@Conditional(R2dbcUnavailableCondition.class)
	static class Unavailable {

		@Bean
		@ConditionalOnMissingBean(Registry.class)
		Registry cridR2dbcRegistryUnavailable() {
			ClassLoader classLoader = Unavailable.class.getClassLoader();
			boolean classes = org.springframework.util.ClassUtils.isPresent(REGISTRY_CLASS, classLoader)
					&& org.springframework.util.ClassUtils.isPresent(CONNECTION_FACTORY_CLASS, classLoader);
			throw new CridConfigurationException(
					"crid.registry.type is r2dbc but "
							+ (classes ? "the application has no R2DBC ConnectionFactory bean"
									: "dev.crid:crid-spring-data or io.r2dbc:r2dbc-spi is missing from the classpath"),
					classes ? "Configure spring.r2dbc.url (or define a ConnectionFactory bean), or set crid.registry.type "
							+ "to jdbc or memory."
							: "Add dev.crid:crid-spring-data and an R2DBC driver (r2dbc-postgresql, r2dbc-mariadb or "
									+ "r2dbc-h2) to the dependencies, or set crid.registry.type to jdbc or memory.",
					null);
		}

	}

}
