package dev.crid.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import dev.crid.InMemoryRegistry;
import dev.crid.InvalidConfigException;
import dev.crid.Registry;
import dev.crid.autoconfigure.CridProperties.RegistryType;
import dev.crid.autoconfigure.CridProperties.SchemaInitialization;
import dev.crid.jdbc.JdbcDialect;
import dev.crid.jdbc.JdbcTemplateRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.ResourceLoader;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.util.ClassUtils;

/**
 * The registry the auto-configured node reserves its blocks in, chosen by {@code crid.registry.type}.
 * Imported in this order, so the first that registers a {@link Registry} wins and a user's own
 * {@code Registry} bean beats them all.
 */
final class RegistryConfigurations {

	static final String JDBC_REGISTRY_CLASS = "dev.crid.jdbc.JdbcTemplateRegistry";

	static final String JDBC_TEMPLATE_CLASS = "org.springframework.jdbc.core.JdbcTemplate";

	static final String EMBEDDED_DATABASE_CLASS = "org.springframework.boot.jdbc.EmbeddedDatabaseConnection";

	private RegistryConfigurations() {
	}

	/**
	 * The database registry, on the application's DataSource.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = { JDBC_REGISTRY_CLASS, JDBC_TEMPLATE_CLASS, EMBEDDED_DATABASE_CLASS })
	@ConditionalOnBean(DataSource.class)
	@ConditionalOnMissingBean(Registry.class)
	@ConditionalOnRegistryType({ RegistryType.AUTO, RegistryType.JDBC })
	static class Jdbc {

		@Bean
		@ConditionalOnMissingBean(Registry.class)
		JdbcTemplateRegistry cridRegistry(ObjectProvider<DataSource> dataSources,
				@CridDataSource ObjectProvider<DataSource> cridDataSource, CridProperties properties) {
			CridProperties.Jdbc jdbc = properties.getRegistry().getJdbc();
			Duration retention = jdbc.getRetention();
			if (retention != null && !retention.isZero() && properties.getMaxClockSkew() != null
					&& retention.compareTo(properties.getMaxClockSkew()) <= 0) {
				throw ConfigurationProblems.retentionWithinClockSkew(retention, properties.getMaxClockSkew());
			}
			try {
				DataSource dataSource = dataSource(dataSources, cridDataSource, properties);
				return JdbcTemplateRegistry.builder(new JdbcTemplate(dataSource))
					.tableName(jdbc.getTableName())
					.dialect(dialect(jdbc))
					.queryTimeout(jdbc.getQueryTimeout())
					.retention(retention)
					.createMetadataTable(jdbc.getInitializeSchema() != SchemaInitialization.NEVER)
					.build();
			}
			catch (InvalidConfigException ex) {
				throw ConfigurationProblems.invalidRegistryProperties(jdbc, ex);
			}
		}

		@Bean
		@ConditionalOnMissingBean
		SchemaInitializer cridSchemaInitializer(JdbcTemplateRegistry cridRegistry, ObjectProvider<DataSource> dataSources,
				@CridDataSource ObjectProvider<DataSource> cridDataSource, CridProperties properties) {
			return new SchemaInitializer(cridRegistry, dataSource(dataSources, cridDataSource, properties),
					properties.getRegistry().getJdbc().getInitializeSchema());
		}

		/** Returns the dialect {@code crid.registry.jdbc.dialect} forces, or {@code null} to detect it. */
		private static JdbcDialect dialect(CridProperties.Jdbc jdbc) {
			String name = jdbc.getDialect();
			if (name == null || name.isBlank() || CridProperties.Jdbc.AUTO_DIALECT.equalsIgnoreCase(name.strip())) {
				return null;
			}
			try {
				return JdbcDialect.of(name);
			}
			catch (IllegalArgumentException ex) {
				throw new CridConfigurationException("The crid configuration is invalid:\n\n"
						+ "    Property: crid.registry.jdbc.dialect\n    Value: '" + name + "'\n    Reason: "
						+ ex.getMessage() + "\n",
						"Update your application's configuration:\n    - Set crid.registry.jdbc.dialect to "
								+ CridProperties.Jdbc.AUTO_DIALECT + " (the default, detected from the database) or one of "
								+ JdbcDialect.names() + ".",
						ex);
			}
		}

		/**
		 * Returns the DataSource qualified with {@link CridDataSource}, else the only or primary one.
		 */
		private static DataSource dataSource(ObjectProvider<DataSource> dataSources,
				ObjectProvider<DataSource> cridDataSource, CridProperties properties) {
			DataSource dataSource = cridDataSource.getIfAvailable(dataSources::getIfUnique);
			if (dataSource == null) {
				throw new CridConfigurationException(
						"crid.registry.type is " + properties.getRegistry().getType().name().toLowerCase()
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

	/**
	 * The in-memory registry: asked for, or the fallback of {@code auto} without a database registry.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnRegistryType({ RegistryType.AUTO, RegistryType.MEMORY })
	static class InMemory {

		private static final Log logger = LogFactory.getLog(CridAutoConfiguration.class);

		@Bean
		@ConditionalOnMissingBean(Registry.class)
		InMemoryRegistry cridRegistry(CridProperties properties, ObjectProvider<DataSource> dataSources,
				ResourceLoader resourceLoader) {
			if (properties.getRegistry().getType() == RegistryType.AUTO) {
				List<String> missing = missingJdbcArtifacts(resourceLoader.getClassLoader());
				String why = dataSources.stream().findAny().isEmpty() ? "the application has no DataSource"
						: String.join(" and ", missing) + " missing from the classpath";
				logger.warn("crid uses an in-memory registry because " + why
						+ ": IDs are unique only within this process, not across instances or restarts "
						+ "(set crid.registry.type=memory to accept this, or provide a DataSource for a "
						+ "database registry)");
			}
			else {
				logger.info("crid uses an in-memory registry (crid.registry.type=memory): IDs are unique only "
						+ "within this process");
			}
			return new InMemoryRegistry();
		}

	}

	/**
	 * {@code crid.registry.type=jdbc} when the database registry could not be set up: fails start-up with
	 * the reason.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnRegistryType(RegistryType.JDBC)
	static class UnavailableJdbc {

		@Bean
		@ConditionalOnMissingBean(Registry.class)
		Registry cridRegistry(ObjectProvider<DataSource> dataSources, ResourceLoader resourceLoader) {
			throw ConfigurationProblems.jdbcRegistryUnavailable(missingJdbcArtifacts(resourceLoader.getClassLoader()),
					dataSources.stream().findAny().isPresent());
		}

	}

	/**
	 * Returns what the database registry needs but the classpath lacks, as Maven coordinates.
	 */
	static List<String> missingJdbcArtifacts(@Nullable ClassLoader classLoader) {
		List<String> missing = new ArrayList<>();
		if (!ClassUtils.isPresent(JDBC_REGISTRY_CLASS, classLoader)) {
			missing.add("dev.crid:crid-jdbc");
		}
		if (!ClassUtils.isPresent(JDBC_TEMPLATE_CLASS, classLoader)) {
			missing.add("org.springframework:spring-jdbc");
		}
		if (!ClassUtils.isPresent(EMBEDDED_DATABASE_CLASS, classLoader)) {
			missing.add("org.springframework.boot:spring-boot-jdbc");
		}
		return missing;
	}

}
