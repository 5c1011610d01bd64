package dev.crid.autoconfigure.metrics;

import dev.crid.CridNode;
import dev.crid.autoconfigure.ConditionalOnNamedNodes;
import dev.crid.autoconfigure.CridAutoConfiguration;
import dev.crid.autoconfigure.CridNodes;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the {@link CridMeterBinder} when Micrometer is in use: one for
 * each node, tagged {@code node} with its name.
 */
@AutoConfiguration(after = CridAutoConfiguration.class,
		afterName = "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration")
@ConditionalOnClass({ CridNode.class, MeterRegistry.class })
@ConditionalOnBooleanProperty(name = "crid.enabled", matchIfMissing = true)
@ConditionalOnBean({ CridNode.class, MeterRegistry.class })
public final class CridMetricsAutoConfiguration {

	CridMetricsAutoConfiguration() {
	}

	@Bean
	@ConditionalOnMissingBean
	CridMeterBinder cridMeterBinder(CridNode cridNode) {
		return new CridMeterBinder(cridNode);
	}

	/**
	 * The meters of each named node ({@code crid.nodes}), tagged with its name.
	 */
	@Bean
	@ConditionalOnNamedNodes
	@ConditionalOnMissingBean(name = "cridNamedNodesMeterBinder")
	MeterBinder cridNamedNodesMeterBinder(CridNodes cridNodes) {
		return (registry) -> cridNodes.all().forEach((name, node) -> {
			if (!CridNodes.DEFAULT_NODE.equals(name)) {
				new CridMeterBinder(name, node).bindTo(registry);
			}
		});
	}

}
