package dev.crid.autoconfigure;

import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import dev.crid.InMemoryRegistry;
import dev.crid.Registry;
import dev.crid.autoconfigure.CridProperties.RegistryType;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.ResourceLoader;
import org.springframework.util.ClassUtils;

/**
 * The registries that need no database support, chosen by {@code crid.registry.type}: the
 * in-memory one, and the failure of {@code jdbc} when the database registry cannot be set
 * up. Imported by {@link CridAutoConfiguration} after the database registry
 * ({@link dev.crid.autoconfigure.jdbc.JdbcRegistryConfiguration}), so the first that
 * registers a {@link Registry} wins and a user's own {@code Registry} bean beats them
 * all.
 */
final class RegistryConfigurations {

	static final String JDBC_REGISTRY_CLASS = "dev.crid.jdbc.JdbcTemplateRegistry";

	static final String JDBC_TEMPLATE_CLASS = "org.springframework.jdbc.core.JdbcTemplate";

	static final String EMBEDDED_DATABASE_CLASS = "org.springframework.boot.jdbc.EmbeddedDatabaseConnection";

	private RegistryConfigurations() {
	}

	/**
	 * The in-memory registry: asked for, or the fallback of {@code auto} without a
	 * database registry.
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

		/**
		 * Each named node's registry, beside the default node's in-memory one: an
		 * in-memory one of its own.
		 */
		@Bean
		@ConditionalOnBean(InMemoryRegistry.class)
		@ConditionalOnMissingBean(CridRegistryFactory.class)
		CridRegistryFactory cridInMemoryRegistryFactory() {
			return (nodeName, nodeProperties) -> new InMemoryRegistry();
		}

	}

	/**
	 * {@code crid.registry.type=jdbc} when the database registry could not be set up:
	 * fails start-up with the reason.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnRegistryType(RegistryType.JDBC)
	static class UnavailableJdbc {

		@Bean
		@ConditionalOnMissingBean(Registry.class)
		Registry cridRegistry(ObjectProvider<DataSource> dataSources, ResourceLoader resourceLoader) {
			throw ConfigurationFailures.jdbcRegistryUnavailable(missingJdbcArtifacts(resourceLoader.getClassLoader()),
					dataSources.stream().findAny().isPresent());
		}

	}

	/**
	 * Returns what the database registry needs but the classpath lacks, as Maven
	 * coordinates.
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
