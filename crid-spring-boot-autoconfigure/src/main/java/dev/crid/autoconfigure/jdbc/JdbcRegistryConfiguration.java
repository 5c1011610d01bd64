package dev.crid.autoconfigure.jdbc;

import java.time.Duration;
import java.util.Locale;

import javax.sql.DataSource;

import dev.crid.InvalidConfigException;
import dev.crid.Registry;
import dev.crid.autoconfigure.ConditionalOnRegistryType;
import dev.crid.autoconfigure.CridAutoConfiguration;
import dev.crid.autoconfigure.CridConfigurationException;
import dev.crid.autoconfigure.CridDataSource;
import dev.crid.autoconfigure.CridProperties;
import dev.crid.autoconfigure.CridProperties.RegistryType;
import dev.crid.autoconfigure.CridRegistryFactory;
import dev.crid.jdbc.JdbcDialect;
import dev.crid.jdbc.JdbcTemplateRegistry;

import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.boot.sql.init.dependency.DatabaseInitializationDependencyConfigurer;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The database registry, on the application's DataSource (the one qualified with
 * {@link CridDataSource}, else the only or primary one), and the initializer that
 * prepares its table, which Spring Boot orders among the database's initializers as it
 * does Flyway's. Imported by {@link CridAutoConfiguration} before its in-memory fallback;
 * not meant to be imported by applications, which replace the registry by defining their
 * own {@link Registry} bean.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(name = { "dev.crid.jdbc.JdbcTemplateRegistry", "org.springframework.jdbc.core.JdbcTemplate",
		"org.springframework.boot.jdbc.EmbeddedDatabaseConnection" })
@ConditionalOnBean(DataSource.class)
@ConditionalOnMissingBean(Registry.class)
@ConditionalOnRegistryType({ RegistryType.AUTO, RegistryType.JDBC })
@Import(DatabaseInitializationDependencyConfigurer.class)
public final class JdbcRegistryConfiguration {

	JdbcRegistryConfiguration() {
	}

	@Bean
	@ConditionalOnMissingBean(Registry.class)
	JdbcTemplateRegistry cridRegistry(ObjectProvider<DataSource> dataSources,
			@CridDataSource ObjectProvider<DataSource> cridDataSource, CridProperties properties) {
		return registry(dataSource(dataSources, cridDataSource, properties), properties);
	}

	/**
	 * Each named node's registry: on the same DataSource as the default node's, on the
	 * node's own table, prepared as the node's {@code initialize-schema} asks.
	 */
	@Bean
	@ConditionalOnMissingBean(CridRegistryFactory.class)
	CridRegistryFactory cridJdbcRegistryFactory(ObjectProvider<DataSource> dataSources,
			@CridDataSource ObjectProvider<DataSource> cridDataSource, CridProperties properties) {
		return (nodeName, nodeProperties) -> {
			DataSource dataSource = dataSource(dataSources, cridDataSource, properties);
			JdbcTemplateRegistry registry = registry(dataSource, nodeProperties);
			new RegistrySchemaInitializer(registry, dataSource,
					nodeProperties.getRegistry().getJdbc().getInitializeSchema())
				.afterPropertiesSet();
			return registry;
		};
	}

	private static JdbcTemplateRegistry registry(DataSource dataSource, CridProperties properties) {
		CridProperties.JdbcProperties jdbc = properties.getRegistry().getJdbc();
		Duration retention = jdbc.getRetention();
		if (retention != null && !retention.isZero() && properties.getMaxClockSkew() != null
				&& retention.compareTo(properties.getMaxClockSkew()) <= 0) {
			throw JdbcConfigurationFailures.retentionWithinClockSkew(retention, properties.getMaxClockSkew());
		}
		try {
			return JdbcTemplateRegistry.builder(new JdbcTemplate(dataSource))
				.tableName(jdbc.getTableName())
				.dialect(dialect(jdbc))
				.queryTimeout(jdbc.getQueryTimeout())
				.retention(retention)
				.createMetadataTable(jdbc.getInitializeSchema() != CridProperties.SchemaInitialization.NEVER)
				.build();
		}
		catch (InvalidConfigException ex) {
			throw JdbcConfigurationFailures.invalidRegistryProperties(jdbc, ex);
		}
	}

	@Bean
	@ConditionalOnMissingBean
	RegistrySchemaInitializer cridSchemaInitializer(JdbcTemplateRegistry cridRegistry,
			ObjectProvider<DataSource> dataSources, @CridDataSource ObjectProvider<DataSource> cridDataSource,
			CridProperties properties) {
		return new RegistrySchemaInitializer(cridRegistry, dataSource(dataSources, cridDataSource, properties),
				properties.getRegistry().getJdbc().getInitializeSchema());
	}

	/**
	 * Returns the dialect {@code crid.registry.jdbc.dialect} forces, or {@code null} to
	 * detect it.
	 */
	private static @Nullable JdbcDialect dialect(CridProperties.JdbcProperties jdbc) {
		String name = jdbc.getDialect();
		if (name == null || name.isBlank()
				|| CridProperties.JdbcProperties.AUTO_DIALECT.equalsIgnoreCase(name.strip())) {
			return null;
		}
		try {
			return JdbcDialect.of(name);
		}
		catch (IllegalArgumentException ex) {
			throw new CridConfigurationException(
					"The crid configuration is invalid:\n\n" + "    Property: crid.registry.jdbc.dialect\n    Value: '"
							+ name + "'\n    Reason: " + ex.getMessage() + "\n",
					"Update your application's configuration:\n    - Set crid.registry.jdbc.dialect to "
							+ CridProperties.JdbcProperties.AUTO_DIALECT
							+ " (the default, detected from the database) or one of " + JdbcDialect.names() + ".",
					ex);
		}
	}

	/**
	 * Returns the DataSource qualified with {@link CridDataSource}, else the only or
	 * primary one.
	 */
	private static DataSource dataSource(ObjectProvider<DataSource> dataSources,
			ObjectProvider<DataSource> cridDataSource, CridProperties properties) {
		DataSource dataSource = cridDataSource.getIfAvailable(dataSources::getIfUnique);
		if (dataSource == null) {
			throw new CridConfigurationException(
					"crid.registry.type is " + properties.getRegistry().getType().name().toLowerCase(Locale.ROOT)
							+ " but the application has several DataSource beans, none is @CridDataSource and "
							+ "none is @Primary, so crid cannot tell which database holds its registry table.",
					"Annotate the DataSource bean that should hold crid's registry table with "
							+ "@dev.crid.autoconfigure.CridDataSource, or mark one DataSource bean @Primary, or "
							+ "define your own dev.crid.Registry bean, e.g. "
							+ "new JdbcTemplateRegistry(new JdbcTemplate(theDataSource)).",
					null);
		}
		return dataSource;
	}

}
