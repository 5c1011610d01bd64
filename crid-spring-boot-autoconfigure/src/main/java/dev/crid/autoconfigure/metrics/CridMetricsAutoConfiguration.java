package dev.crid.autoconfigure.metrics;

import dev.crid.CridNode;
import dev.crid.autoconfigure.CridAutoConfiguration;
import dev.crid.autoconfigure.CridNodes;
import dev.crid.micrometer.CridMeterBinder;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the {@link CridMeterBinder} when Micrometer is in use: one binder
 * for every node, each node's meters tagged {@code node} with its name.
 */
@AutoConfiguration(after = CridAutoConfiguration.class,
		afterName = "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration")
@ConditionalOnClass({ CridNode.class, MeterRegistry.class })
@ConditionalOnBooleanProperty(name = "crid.enabled", matchIfMissing = true)
@ConditionalOnBean({ CridNodes.class, MeterRegistry.class })
public final class CridMetricsAutoConfiguration {

	CridMetricsAutoConfiguration() {
	}

	@Bean
	@ConditionalOnMissingBean
	CridMeterBinder cridMeterBinder(CridNodes cridNodes) {
		return new CridMeterBinder(cridNodes.all());
	}

}
