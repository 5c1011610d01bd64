package dev.crid.autoconfigure.observation;

import dev.crid.autoconfigure.registry.CridRegistryAutoConfiguration;
import dev.crid.CridNode;
import dev.crid.Registry;
import dev.crid.RegistryException;
import dev.crid.autoconfigure.CridAutoConfiguration;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static io.micrometer.observation.tck.TestObservationRegistryAssert.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link CridObservationAutoConfiguration}: the auto-configured node's
 * reservations become observations when, and only when, the application has an
 * {@link ObservationRegistry}.
 */
class CridObservationAutoConfigurationTest {

	private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(AutoConfigurations
		.of(CridRegistryAutoConfiguration.class, CridAutoConfiguration.class, CridObservationAutoConfiguration.class));

	@Test
	void observesTheDefaultNodesReservationsInMemory() {
		this.runner.withBean(ObservationRegistry.class, TestObservationRegistry::create).run((context) -> {
			assertThat(context).hasSingleBean(CridObservationAutoConfiguration.RegistryObservation.class);
			context.getBean(CridNode.class).nextId();
			TestObservationRegistry observations = (TestObservationRegistry) context.getBean(ObservationRegistry.class);
			assertThat(observations).hasObservationWithNameEqualTo("crid.registry.reserve")
				.that()
				.hasLowCardinalityKeyValue("crid.node", "default")
				.hasLowCardinalityKeyValue("crid.registry", "memory")
				.hasLowCardinalityKeyValue("outcome", "success")
				.hasHighCardinalityKeyValueWithKey("crid.timestamp")
				.hasBeenStarted()
				.hasBeenStopped()
				.doesNotHaveError();
		});
	}

	@Test
	void namesADatabaseRegistryJdbc() {
		this.runner.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class))
			.withPropertyValues("spring.datasource.url=jdbc:h2:mem:crid_observation;DB_CLOSE_DELAY=-1")
			.withBean(ObservationRegistry.class, TestObservationRegistry::create)
			.run((context) -> {
				context.getBean(CridNode.class).nextId();
				TestObservationRegistry observations = (TestObservationRegistry) context
					.getBean(ObservationRegistry.class);
				assertThat(observations).hasObservationWithNameEqualTo("crid.registry.reserve")
					.that()
					.hasLowCardinalityKeyValue("crid.registry", "jdbc")
					.hasLowCardinalityKeyValue("outcome", "success");
			});
	}

	@Test
	void recordsAFailedReservationWithItsError() {
		this.runner.withBean(ObservationRegistry.class, TestObservationRegistry::create)
			.withBean(Registry.class, DownRegistry::new)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				TestObservationRegistry observations = (TestObservationRegistry) context
					.getBean(ObservationRegistry.class);
				assertThat(observations).hasObservationWithNameEqualTo("crid.registry.reserve")
					.that()
					.hasLowCardinalityKeyValue("crid.registry", "DownRegistry")
					.hasLowCardinalityKeyValue("outcome", "failure")
					.hasBeenStopped()
					.assertThatError()
					.isInstanceOf(RegistryException.class)
					.hasMessage(DownRegistry.MESSAGE);
			});
	}

	@Test
	void leavesTheRegistryAloneWithoutAnObservationRegistry() {
		this.runner.run((context) -> assertThat(context)
			.doesNotHaveBean(CridObservationAutoConfiguration.RegistryObservation.class)
			.hasSingleBean(CridNode.class));
	}

	@Test
	void backsOffWithoutMicrometerObservation() {
		this.runner.withClassLoader(new FilteredClassLoader(ObservationRegistry.class))
			.run((context) -> assertThat(context)
				.doesNotHaveBean(CridObservationAutoConfiguration.RegistryObservation.class)
				.hasSingleBean(CridNode.class));
	}

	/**
	 * A registry that is down for good: refuses every reservation at once, so the node
	 * does not retry.
	 */
	static final class DownRegistry implements Registry {

		static final String MESSAGE = "The registry is down";

		@Override
		public long allocate(long timestamp, long blockSize) {
			throw new RegistryException(MESSAGE, null, false);
		}

	}

}
