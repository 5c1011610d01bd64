package dev.crid.autoconfigure.health;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;

import dev.crid.CridNode;
import dev.crid.actuate.health.CridHealthIndicator;
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
 * Auto-configuration of the health component {@code crid}, as Spring Boot's own
 * {@code db} component is made: a {@link CridHealthIndicator} for the default node, or,
 * with named nodes ({@code crid.nodes}), a composite of one indicator per node, by the
 * node's name ({@code crid/default}, {@code crid/<name>}). Off with
 * {@code management.health.crid.enabled=false}.
 */
@AutoConfiguration(after = CridAutoConfiguration.class)
@ConditionalOnClass({ CridNode.class, HealthIndicator.class, ConditionalOnEnabledHealthIndicator.class })
@ConditionalOnBooleanProperty(name = "crid.enabled", matchIfMissing = true)
@ConditionalOnBean(CridNodes.class)
@ConditionalOnEnabledHealthIndicator("crid")
public final class CridHealthContributorAutoConfiguration {

	CridHealthContributorAutoConfiguration() {
	}

	/**
	 * The component {@code crid}, checking the registries on Spring Boot's application
	 * task executor when there is one, else on the common fork-join pool: crid starts no
	 * thread of its own for it.
	 */
	@Bean
	@ConditionalOnMissingBean(name = { "cridHealthIndicator", "cridHealthContributor" })
	HealthContributor cridHealthContributor(CridNodes cridNodes,
			@Qualifier("applicationTaskExecutor") ObjectProvider<Executor> applicationTaskExecutor) {
		Executor executor = applicationTaskExecutor.getIfAvailable(ForkJoinPool::commonPool);
		Map<String, HealthContributor> indicators = new LinkedHashMap<>();
		cridNodes.all()
			.forEach((name, node) -> indicators.put(name,
					new CridHealthIndicator(node, cridNodes.registry(name), executor)));
		return (indicators.size() == 1) ? indicators.values().iterator().next()
				: CompositeHealthContributor.fromMap(indicators);
	}

}
