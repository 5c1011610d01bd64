package dev.crid.autoconfigure.health;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;

import dev.crid.CridNode;
import dev.crid.Registry;
import dev.crid.autoconfigure.ConditionalOnNamedNodes;
import dev.crid.autoconfigure.CridAutoConfiguration;
import dev.crid.autoconfigure.CridNodes;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the {@link CridHealthIndicator}, shown as the health component
 * {@code crid}; off with {@code management.health.crid.enabled=false}. With named nodes
 * ({@code crid.nodes}), {@code crid} holds one indicator per node, by the node's name.
 */
@AutoConfiguration(after = CridAutoConfiguration.class)
@ConditionalOnClass({ CridNode.class, HealthIndicator.class, ConditionalOnEnabledHealthIndicator.class })
@ConditionalOnBooleanProperty(name = "crid.enabled", matchIfMissing = true)
@ConditionalOnBean(CridNode.class)
@ConditionalOnEnabledHealthIndicator("crid")
public final class CridHealthContributorAutoConfiguration {

	CridHealthContributorAutoConfiguration() {
	}

	/**
	 * The indicator of the default node, checking the registry on Spring Boot's
	 * application task executor when there is one, else on the common fork-join pool:
	 * crid starts no thread of its own for it.
	 */
	@Bean
	@ConditionalOnNamedNodes(false)
	@ConditionalOnMissingBean(name = { "cridHealthIndicator", "cridHealthContributor" })
	CridHealthIndicator cridHealthIndicator(CridNode cridNode, ObjectProvider<Registry> registry,
			@Qualifier("applicationTaskExecutor") ObjectProvider<Executor> applicationTaskExecutor) {
		return new CridHealthIndicator(cridNode, registry.getIfUnique(),
				applicationTaskExecutor.getIfAvailable(ForkJoinPool::commonPool));
	}

	/**
	 * With named nodes, the component {@code crid} holds an indicator for each node by
	 * name ({@code crid/default}, {@code crid/<name>}).
	 */
	@Bean
	@ConditionalOnNamedNodes
	@ConditionalOnMissingBean(name = { "cridHealthIndicator", "cridHealthContributor" })
	CompositeHealthContributor cridHealthContributor(CridNodes cridNodes,
			@Qualifier("applicationTaskExecutor") ObjectProvider<Executor> applicationTaskExecutor) {
		Executor executor = applicationTaskExecutor.getIfAvailable(ForkJoinPool::commonPool);
		Map<String, HealthContributor> indicators = new LinkedHashMap<>();
		cridNodes.all()
			.forEach((name, node) -> indicators.put(name,
					new CridHealthIndicator(node, cridNodes.registry(name), executor)));
		return CompositeHealthContributor.fromMap(indicators);
	}

}
