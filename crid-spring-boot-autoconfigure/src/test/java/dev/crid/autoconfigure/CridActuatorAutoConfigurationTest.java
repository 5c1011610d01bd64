package dev.crid.autoconfigure;

import java.time.Duration;
import java.util.Map;

import dev.crid.autoconfigure.registry.CridRegistryAutoConfiguration;
import dev.crid.CridId;
import dev.crid.CridNode;
import dev.crid.InMemoryRegistry;
import dev.crid.Registry;
import dev.crid.RegistryException;
import dev.crid.actuate.endpoint.CridEndpoint;
import dev.crid.autoconfigure.endpoint.CridEndpointAutoConfiguration;
import dev.crid.autoconfigure.health.CridHealthContributorAutoConfiguration;
import dev.crid.actuate.health.CridHealthIndicator;
import dev.crid.micrometer.CridMeterBinder;
import dev.crid.autoconfigure.metrics.CridMetricsAutoConfiguration;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Tests for the health, metrics and endpoint auto-configurations, with the in-memory
 * registry. The database side is in {@link CridPostgresIntegrationTest}.
 */
class CridActuatorAutoConfigurationTest {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(CridRegistryAutoConfiguration.class, CridAutoConfiguration.class,
				CridHealthContributorAutoConfiguration.class, CridMetricsAutoConfiguration.class,
				CridEndpointAutoConfiguration.class))
		.withPropertyValues("crid.registry.type=memory");

	@Test
	void healthIndicatorIsNamedCrid() {
		this.runner.run((context) -> assertThat(context).hasSingleBean(CridHealthIndicator.class)
			.hasBean("cridHealthContributor"));
	}

	@Test
	void healthIndicatorCanBeSwitchedOff() {
		this.runner.withPropertyValues("management.health.crid.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(CridHealthIndicator.class));
	}

	@Test
	void healthIndicatorNeedsSpringBootHealth() {
		this.runner.withClassLoader(new FilteredClassLoader(HealthIndicator.class))
			.run((context) -> assertThat(context).doesNotHaveBean(CridHealthIndicator.class)
				.hasSingleBean(CridNode.class));
	}

	@Test
	void healthIndicatorBacksOffForUsersOwn() {
		this.runner.withBean("cridHealthIndicator", HealthIndicator.class, () -> () -> Health.up().build())
			.run((context) -> assertThat(context).doesNotHaveBean(CridHealthIndicator.class));
	}

	@Test
	void healthIsUpWithDetailsForInMemoryRegistry() {
		this.runner.run((context) -> {
			CridNode node = context.getBean(CridNode.class);
			node.nextId();
			Health health = context.getBean(CridHealthIndicator.class).health();
			assertThat(health.getStatus()).isEqualTo(Status.UP);
			assertThat(health.getDetails())
				.containsEntry("registry",
						Map.of("kind", "memory", "retainedTimestamps", InMemoryRegistry.DEFAULT_RETAINED_TIMESTAMPS))
				.containsEntry("layout",
						Map.of("epoch", "2026-01-01T00:00:00Z", "timestampBits", 31, "sequenceBits", 32))
				.containsEntry("idsLeftInBlock", CridNode.DEFAULT_BLOCK_SIZE - 1)
				.containsEntry("idsIssued", 1L)
				.containsKey("lastAllocationTime");
		});
	}

	@Test
	void healthIsDownWhenAnUncheckableRegistryKeepsFailing() {
		Registry failing = (timestamp, blockSize) -> {
			throw new RegistryException("registry unavailable for the test");
		};
		CridNode node = CridNode.builder(failing).allocationTimeout(Duration.ofSeconds(1)).build();
		try {
			CridHealthIndicator indicator = new CridHealthIndicator(node, failing);
			assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);
			assertThatThrownBy(node::nextId).isInstanceOf(RegistryException.class);
			Health health = indicator.health();
			assertThat(health.getStatus()).isEqualTo(Status.DOWN);
			assertThat(health.getDetails().get("error").toString()).contains("registry unavailable for the test");
			// The node goes on retrying in the background: the count read later is no
			// smaller.
			assertThat((Long) health.getDetails().get("consecutiveFailures")).isBetween(1L,
					node.stats().consecutiveFailures());
			assertThat(node.stats().consecutiveFailures()).as("asked again within the timeout").isGreaterThan(1);
		}
		finally {
			node.close();
		}
	}

	@Test
	void healthIsOutOfServiceOnceTheNodeIsClosed() {
		InMemoryRegistry registry = new InMemoryRegistry();
		CridNode node = CridNode.builder(registry).build();
		node.close();
		assertThat(new CridHealthIndicator(node, registry).health().getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
	}

	@Test
	void metersNeedAMeterRegistry() {
		this.runner.run((context) -> assertThat(context).doesNotHaveBean(CridMeterBinder.class));
		this.runner.withBean(SimpleMeterRegistry.class)
			.withClassLoader(new FilteredClassLoader(MeterRegistry.class))
			.run((context) -> assertThat(context).doesNotHaveBean(CridMeterBinder.class));
	}

	@Test
	void metersMoveAfterNextId() {
		this.runner.withBean(SimpleMeterRegistry.class)
			.withPropertyValues("crid.block-size=100", "crid.threshold=50")
			.run((context) -> {
				assertThat(context).hasSingleBean(CridMeterBinder.class);
				MeterRegistry meters = context.getBean(MeterRegistry.class);
				context.getBean(CridMeterBinder.class).bindTo(meters);
				assertThat(meters.get("crid.ids.issued").functionCounter().count()).isZero();
				CridNode node = context.getBean(CridNode.class);
				for (int i = 0; i < 60; i++) {
					node.nextId();
				}
				assertThat(meters.get("crid.ids.issued").functionCounter().count()).isEqualTo(60);
				// The first block was reserved at start-up, ahead of need; the next when
				// 50 were left.
				FunctionTimer synchronous = meters.get("crid.allocations").tag("mode", "synchronous").functionTimer();
				assertThat(synchronous.count()).isZero();
				assertThat(outcome(meters, "synchronous", "failure").count()).isZero();
				assertThat(meters.get("crid.stalls").functionCounter().count()).isZero();
				assertThat(meters.get("crid.ids.left").gauge().value()).isEqualTo(40);
				await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
					FunctionTimer prefetch = meters.get("crid.allocations").tag("mode", "prefetch").functionTimer();
					assertThat(prefetch.count()).isEqualTo(2);
					assertThat(prefetch.totalTime(java.util.concurrent.TimeUnit.NANOSECONDS)).isPositive();
					assertThat(outcome(meters, "prefetch", "success").count()).isEqualTo(2);
				});
				// 40 left and 100 ready: 140 s at the floor of one ID over the node's
				// window (a second without a runway), less at the rate measured
				assertThat(meters.get("crid.runway").gauge().value()).isGreaterThan(0).isLessThanOrEqualTo(140);
				assertThat(meters.get("crid.clock.skew").gauge().value()).as("an in-memory registry has no clock")
					.isNaN();
				assertThat(meters.get("crid.registry.went.back").functionCounter().count()).isZero();
				assertThat(meters.get("crid.allocations.consecutive.failures").gauge().value()).isZero();
			});
	}

	@Test
	void endpointNeedsExposure() {
		this.runner.run((context) -> assertThat(context).doesNotHaveBean(CridEndpoint.class));
		this.runner.withPropertyValues("management.endpoints.web.exposure.include=crid")
			.run((context) -> assertThat(context).hasSingleBean(CridEndpoint.class));
		this.runner
			.withPropertyValues("management.endpoints.web.exposure.include=crid",
					"management.endpoint.crid.access=NONE")
			.run((context) -> assertThat(context).doesNotHaveBean(CridEndpoint.class));
		this.runner.withPropertyValues("management.endpoints.web.exposure.include=crid")
			.withClassLoader(new FilteredClassLoader(Endpoint.class))
			.run((context) -> assertThat(context).doesNotHaveBean(CridEndpoint.class));
	}

	@Test
	void endpointDescribesTheNodeAndDecodesIds() {
		this.runner
			.withPropertyValues("management.endpoints.web.exposure.include=crid", "crid.block-size=1000",
					"crid.threshold=500")
			.run((context) -> {
				CridEndpoint endpoint = context.getBean(CridEndpoint.class);
				CridNode node = context.getBean(CridNode.class);
				CridId id = node.next();
				CridEndpoint.NodeDescriptor descriptor = endpoint.crid().nodes().get("default");
				assertThat(descriptor.layout().timestampBits()).isEqualTo(31);
				assertThat(descriptor.layout().lastSecond()).isEqualTo(node.layout().epoch().plusSeconds(2147483647L));
				assertThat(descriptor.registry()).containsEntry("kind", "memory");
				assertThat(descriptor.blockSize()).isEqualTo(1000);
				assertThat(descriptor.stats().idsIssued()).isEqualTo(1);
				CridEndpoint.DecodedId decoded = endpoint.decode(id.toString());
				assertThat(decoded.id()).isEqualTo(id.toString());
				assertThat(decoded.timestamp()).isEqualTo(node.parser().parse(id).timestamp());
				assertThat(decoded.sequence()).isEqualTo(node.parser().parse(id).sequence());
				assertThat(decoded.epochSeconds()).isEqualTo(node.layout().timestampOf(id.value()));
			});
	}

	@Test
	void endpointDecodesTheSharedVector() {
		this.runner.withPropertyValues("management.endpoints.web.exposure.include=crid").run((context) -> {
			CridEndpoint.DecodedId decoded = context.getBean(CridEndpoint.class).decode("2147483648007");
			assertThat(decoded.timestamp()).hasToString("2026-01-01T00:08:20Z");
			assertThat(decoded.epochSeconds()).isEqualTo(500);
			assertThat(decoded.sequence()).isEqualTo(7);
		});
	}

	@Test
	void endpointRejectsBadIdsAsInvalidRequests() {
		this.runner.withPropertyValues("management.endpoints.web.exposure.include=crid").run((context) -> {
			CridEndpoint endpoint = context.getBean(CridEndpoint.class);
			// An ID in neither form: "abc", "-1" and "1e3" are base32 IDs, which the
			// endpoint reads too.
			for (String bad : new String[] { "ab!", "-1.5", "9223372036854775808", " 12", "1u3", "" }) {
				assertThatExceptionOfType(InvalidEndpointRequestException.class).as(bad)
					.isThrownBy(() -> endpoint.decode(bad))
					.withMessageContaining("Invalid crid ID")
					.satisfies((ex) -> assertThat(ex.getReason()).contains("\"" + bad + "\""));
			}
		});
	}

	private static FunctionCounter outcome(MeterRegistry meters, String mode, String outcome) {
		return meters.get("crid.allocations.outcome").tag("mode", mode).tag("outcome", outcome).functionCounter();
	}

}
