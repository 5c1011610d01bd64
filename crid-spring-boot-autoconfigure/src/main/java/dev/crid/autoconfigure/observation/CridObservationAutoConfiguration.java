package dev.crid.autoconfigure.observation;

import dev.crid.CridNode;
import dev.crid.Registry;
import dev.crid.autoconfigure.CridRegistryDecorator;
import dev.crid.micrometer.ObservedRegistry;
import io.micrometer.observation.ObservationRegistry;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of crid's observations when the application has a Micrometer
 * {@link ObservationRegistry}: every block reservation of every auto-configured
 * {@link CridNode} is an observation named {@code crid.registry.reserve}
 * ({@link ObservedRegistry}), with the low-cardinality keys {@code crid.node},
 * {@code crid.registry} and {@code outcome} and the high-cardinality key
 * {@code crid.timestamp}.
 */
@AutoConfiguration(
		afterName = "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration")
@ConditionalOnClass({ CridNode.class, ObservationRegistry.class })
@ConditionalOnBooleanProperty(name = "crid.enabled", matchIfMissing = true)
@ConditionalOnBean(ObservationRegistry.class)
public final class CridObservationAutoConfiguration {

	CridObservationAutoConfiguration() {
	}

	@Bean
	@ConditionalOnMissingBean
	RegistryObservation cridRegistryObservation(ObservationRegistry observations) {
		return new RegistryObservation(observations);
	}

	/**
	 * Decorates the node's registry with an {@link ObservedRegistry}.
	 */
	static final class RegistryObservation implements CridRegistryDecorator {

		private final ObservationRegistry observations;

		RegistryObservation(ObservationRegistry observations) {
			this.observations = observations;
		}

		@Override
		public Registry decorate(String nodeName, Registry registry) {
			return new ObservedRegistry(registry, this.observations, nodeName);
		}

	}

}
