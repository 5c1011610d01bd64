package dev.crid.autoconfigure.registry;

import java.time.Duration;
import java.util.List;

import javax.sql.DataSource;

import dev.crid.InvalidConfigException;
import dev.crid.Registry;
import dev.crid.autoconfigure.CridConfigurationException;
import dev.crid.autoconfigure.CridDataSource;
import dev.crid.autoconfigure.CridNodes;
import dev.crid.autoconfigure.CridProperties;
import dev.crid.autoconfigure.CridRegistryFactory;
import dev.crid.autoconfigure.NodeProperties;
import dev.crid.autoconfigure.RegistryProperties;
import dev.crid.autoconfigure.RegistryType;
import dev.crid.autoconfigure.Setting;
import dev.crid.autoconfigure.Violation;
import dev.crid.jdbc.JdbcDialect;
import dev.crid.jdbc.JdbcTemplateRegistry;

import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.boot.sql.init.dependency.DatabaseInitializationDependencyConfigurer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The database registry, on the application's DataSource (the one qualified with
 * {@link CridDataSource}, else the only or primary one), and the initializer that
 * prepares its table, which Spring Boot orders among the database's initializers as it
 * does Flyway's.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnRegistryType(RegistryType.JDBC)
@Import(DatabaseInitializationDependencyConfigurer.class)
class JdbcRegistryConfiguration {

	@Bean
	@ConditionalOnMissingBean(Registry.class)
	JdbcTemplateRegistry cridRegistry(ObjectProvider<DataSource> dataSources,
			@CridDataSource ObjectProvider<DataSource> cridDataSource, CridProperties properties) {
		return registry(CridNodes.DEFAULT_NODE, dataSource(dataSources, cridDataSource), properties);
	}

	/**
	 * Each named node's registry: on the same DataSource as the default node's, on the
	 * node's own table, prepared as the node's {@code initialize-schema} asks.
	 */
	@Bean
	@ConditionalOnMissingBean
	CridRegistryFactory cridRegistryFactory(ObjectProvider<DataSource> dataSources,
			@CridDataSource ObjectProvider<DataSource> cridDataSource) {
		return (nodeName, nodeProperties) -> {
			DataSource dataSource = dataSource(dataSources, cridDataSource);
			JdbcTemplateRegistry registry = registry(nodeName, dataSource, nodeProperties);
			new RegistrySchemaInitializer(nodeName, registry, dataSource,
					nodeProperties.getRegistry().getJdbc().getInitializeSchema())
				.afterPropertiesSet();
			return registry;
		};
	}

	@Bean
	@ConditionalOnMissingBean
	RegistrySchemaInitializer cridSchemaInitializer(JdbcTemplateRegistry cridRegistry,
			ObjectProvider<DataSource> dataSources, @CridDataSource ObjectProvider<DataSource> cridDataSource,
			CridProperties properties) {
		return new RegistrySchemaInitializer(CridNodes.DEFAULT_NODE, cridRegistry,
				dataSource(dataSources, cridDataSource), properties.getRegistry().getJdbc().getInitializeSchema());
	}

	private static JdbcTemplateRegistry registry(String node, DataSource dataSource, NodeProperties properties) {
		RegistryProperties.Jdbc jdbc = properties.getRegistry().getJdbc();
		Duration retention = jdbc.getRetention();
		if (!retention.isZero() && retention.compareTo(properties.getMaxClockSkew()) <= 0) {
			throw new CridConfigurationException(node, List.of(new Violation(Setting.JDBC_RETENTION, retention,
					"must exceed " + Setting.MAX_CLOCK_SKEW.properties(node).get(0) + " ("
							+ properties.getMaxClockSkew() + "): a node whose clock lags within the skew allowed would "
							+ "be refused seconds that a node ahead of it has evicted")),
					null, null);
		}
		try {
			return JdbcTemplateRegistry.builder(new JdbcTemplate(dataSource))
				.tableName(jdbc.getTableName())
				.dialect(dialect(node, jdbc))
				.queryTimeout(jdbc.getQueryTimeout())
				.retention(retention)
				.createMetadataTable(jdbc.getInitializeSchema() != DatabaseInitializationMode.NEVER)
				.build();
		}
		catch (InvalidConfigException ex) {
			throw CridConfigurationException.refused(node, Setting.Builder.JDBC_REGISTRY, ex);
		}
	}

	/**
	 * Returns the dialect the properties force, or {@code null} to detect it.
	 */
	private static @Nullable JdbcDialect dialect(String node, RegistryProperties.Jdbc jdbc) {
		String name = jdbc.getDialect();
		if (name.isBlank() || RegistryProperties.Jdbc.AUTO_DIALECT.equalsIgnoreCase(name.strip())) {
			return null;
		}
		try {
			return JdbcDialect.of(name);
		}
		catch (IllegalArgumentException ex) {
			throw new CridConfigurationException(node,
					List.of(new Violation(Setting.JDBC_DIALECT, name,
							"must be " + RegistryProperties.Jdbc.AUTO_DIALECT + " or one of " + JdbcDialect.names())),
					null, ex);
		}
	}

	/**
	 * Returns the DataSource qualified with {@link CridDataSource}, else the only or
	 * primary one.
	 */
	private static DataSource dataSource(ObjectProvider<DataSource> dataSources,
			ObjectProvider<DataSource> cridDataSource) {
		DataSource dataSource = cridDataSource.getIfAvailable(dataSources::getIfUnique);
		if (dataSource == null) {
			throw new CridConfigurationException(
					"crid's database registry needs a DataSource, but the application has several, none is "
							+ "@CridDataSource and none is @Primary, so crid cannot tell which database holds its "
							+ "registry table.",
					"Annotate the DataSource bean that should hold crid's registry table with "
							+ "@dev.crid.autoconfigure.CridDataSource, or mark one DataSource bean @Primary, or "
							+ "define your own dev.crid.Registry bean, e.g. "
							+ "new JdbcTemplateRegistry(new JdbcTemplate(theDataSource)).",
					null);
		}
		return dataSource;
	}

}
