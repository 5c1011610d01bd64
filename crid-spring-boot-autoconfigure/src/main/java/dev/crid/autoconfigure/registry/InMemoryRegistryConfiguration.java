package dev.crid.autoconfigure.registry;

import java.util.List;
import java.util.Locale;

import dev.crid.InMemoryRegistry;
import dev.crid.Registry;
import dev.crid.autoconfigure.CridProperties;
import dev.crid.autoconfigure.CridRegistryFactory;
import dev.crid.autoconfigure.RegistryType;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.core.io.ResourceLoader;

/**
 * The in-memory registry: asked for, or what {@code auto} comes to when the application
 * can have no other kind, which it logs as a warning, saying what each kind lacks.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnRegistryType(RegistryType.MEMORY)
class InMemoryRegistryConfiguration {

	private static final Log logger = LogFactory.getLog(InMemoryRegistryConfiguration.class);

	@Bean
	@ConditionalOnMissingBean(Registry.class)
	InMemoryRegistry cridRegistry(CridProperties properties, ListableBeanFactory beanFactory,
			ResourceLoader resourceLoader, Environment environment) {
		if (properties.getRegistry().getType() == RegistryType.AUTO) {
			List<String> lacks = RegistryNeeds.AUTO_ORDER.stream()
				.filter((type) -> type != RegistryType.MEMORY)
				.map((type) -> type.name().toLowerCase(Locale.ROOT) + " needs "
						+ String.join(" and ",
								RegistryNeeds.missing(type, resourceLoader.getClassLoader(), beanFactory, environment)))
				.toList();
			logger.warn("crid uses an in-memory registry because the application can have no other kind ("
					+ String.join("; ", lacks) + "): IDs are unique only within this process, not across instances "
					+ "or restarts (set crid.registry.type=memory to accept this, or provide a DataSource for a "
					+ "database registry)");
		}
		else {
			logger.info("crid uses an in-memory registry (crid.registry.type=memory): IDs are unique only "
					+ "within this process");
		}
		return new InMemoryRegistry();
	}

	/**
	 * Each named node's registry: an in-memory one of its own.
	 */
	@Bean
	@ConditionalOnMissingBean
	CridRegistryFactory cridRegistryFactory() {
		return (nodeName, nodeProperties) -> new InMemoryRegistry();
	}

}
