package dev.crid.autoconfigure;

import java.util.List;

import javax.sql.DataSource;
import java.util.Map;

import dev.crid.autoconfigure.registry.CridRegistryAutoConfiguration;
import dev.crid.CridNode;
import dev.crid.InMemoryRegistry;
import dev.crid.Registry;
import dev.crid.actuate.endpoint.CridEndpoint;
import dev.crid.autoconfigure.endpoint.CridEndpointAutoConfiguration;
import dev.crid.autoconfigure.health.CridHealthContributorAutoConfiguration;
import dev.crid.actuate.health.CridHealthIndicator;
import dev.crid.autoconfigure.metrics.CridMetricsAutoConfiguration;
import dev.crid.jdbc.JdbcTemplateRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for named nodes ({@code crid.nodes.<name>.*}): one bean per node, qualified by
 * its name, beside the default node; {@link CridNodes}; their properties inherited from
 * {@code crid.*}; a registry and table of their own; their health, endpoint and meters;
 * and the start-up failures of a bad name or setting.
 */
class CridNamedNodesTest {

	private static final String JAVASCRIPT_SAFE = "crid.nodes.public.timestamp-bits=41";

	private static final String JAVASCRIPT_SAFE_SEQUENCE = "crid.nodes.public.sequence-bits=22";

	/** A named node of small blocks: its threshold, which crid.threshold exceeds, too. */
	private static final String[] SMALL_NODE_A = { "crid.nodes.a.block-size=10", "crid.nodes.a.threshold=5" };

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(CridRegistryAutoConfiguration.class, CridAutoConfiguration.class))
		.withPropertyValues("crid.registry.type=memory");

	private final ApplicationContextRunner withH2 = new ApplicationContextRunner().withConfiguration(AutoConfigurations
		.of(DataSourceAutoConfiguration.class, CridRegistryAutoConfiguration.class, CridAutoConfiguration.class));

	@Test
	void eachNamedNodeIsABeanQualifiedByItsNameBesideTheDefaultNode() {
		this.runner
			.withPropertyValues(JAVASCRIPT_SAFE, JAVASCRIPT_SAFE_SEQUENCE, "crid.nodes.tenant_b.block-size=100",
					"crid.nodes.tenant_b.threshold=50")
			.withUserConfiguration(InjectsNodes.class)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				CridNodes nodes = context.getBean(CridNodes.class);
				assertThat(nodes.names()).containsExactly("default", "public", "tenant_b");
				InjectsNodes injected = context.getBean(InjectsNodes.class);
				assertThat(injected.defaultNode).isSameAs(nodes.get("default"))
					.isSameAs(context.getBean(CridNode.class));
				assertThat(injected.publicNode).isSameAs(nodes.get("public")).isNotSameAs(injected.defaultNode);
				assertThat(injected.publicNode.layout().timestampBits()).isEqualTo(41);
				assertThat(injected.publicNode.layout().sequenceBits()).isEqualTo(22);
				assertThat(injected.defaultNode.layout().timestampBits()).isEqualTo(31);
				assertThat(nodes.get("tenant_b").blockSize()).isEqualTo(100);
				assertThat(context.getBeansOfType(CridNode.class)).hasSize(3);
				long id = injected.publicNode.nextId();
				assertThat(id).isLessThan(1L << 53);
				assertThat(injected.publicNode.parser().parse(id).sequence())
					.isLessThanOrEqualTo(injected.publicNode.layout().maxSequence());
			});
	}

	@Test
	void anUnknownNameIsRefusedNamingTheKnownOnes() {
		this.runner.withPropertyValues(JAVASCRIPT_SAFE, JAVASCRIPT_SAFE_SEQUENCE).run((context) -> {
			CridNodes nodes = context.getBean(CridNodes.class);
			assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(() -> nodes.get("publik"))
				.withMessageContaining("'publik'")
				.withMessageContaining("[default, public]");
		});
	}

	@Test
	void aNamedNodeTakesCridPropertiesItDoesNotSetItself() {
		this.runner
			.withPropertyValues("crid.block-size=500", "crid.threshold=100", "crid.allocation-timeout=2s",
					"crid.runway=20s", "crid.nodes.a.threshold=50", "crid.nodes.b.block-size=2000",
					"crid.nodes.b.runway=0s")
			.run((context) -> {
				CridNodes nodes = context.getBean(CridNodes.class);
				assertThat(nodes.get("a").blockSize()).isEqualTo(500);
				assertThat(nodes.get("a").threshold()).isEqualTo(50);
				assertThat(nodes.get("a").allocationTimeout()).hasSeconds(2);
				assertThat(nodes.get("b").blockSize()).isEqualTo(2000);
				assertThat(nodes.get("b").threshold()).isEqualTo(100);
				assertThat(nodes.get("a").runway()).hasSeconds(20);
				assertThat(nodes.get("b").runway()).isZero();
			});
	}

	@Test
	void withoutNamedNodesThereIsOneNodeAndCridNodesKnowsOnlyTheDefault() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(CridNode.class);
			assertThat(context.getBean(CridNodes.class).names()).containsExactly("default");
		});
	}

	@Test
	void eachNamedNodeHasARegistryOfItsOwn() {
		this.runner.withPropertyValues(SMALL_NODE_A).run((context) -> {
			CridNodes nodes = context.getBean(CridNodes.class);
			assertThat(nodes.registry("a")).isInstanceOf(InMemoryRegistry.class)
				.isNotSameAs(nodes.registry("default"))
				.isNotSameAs(context.getBean(Registry.class));
			assertThat(nodes.registry("default")).isSameAs(context.getBean(Registry.class));
		});
	}

	@Test
	void namedNodesCloseWithTheContext() {
		this.runner.withPropertyValues(SMALL_NODE_A).run((context) -> {
			CridNode node = context.getBean(CridNodes.class).get("a");
			context.close();
			assertThat(node.isClosed()).isTrue();
		});
	}

	@Test
	void customizersCustomizeTheDefaultNodeUnlessTheyAskForEveryNode() {
		this.runner.withPropertyValues(SMALL_NODE_A)
			.withBean("defaultOnly", CridNodeCustomizer.class, () -> (builder) -> builder.threshold(7))
			.run((context) -> {
				CridNodes nodes = context.getBean(CridNodes.class);
				assertThat(nodes.get("default").threshold()).isEqualTo(7);
				assertThat(nodes.get("a").threshold()).isEqualTo(5);
			});
		this.runner.withPropertyValues(SMALL_NODE_A)
			.withBean("everyNode", CridNodeCustomizer.class, () -> new CridNodeCustomizer() {

				@Override
				public void customize(CridNode.Builder builder) {
				}

				@Override
				public void customize(String nodeName, CridNode.Builder builder) {
					builder.threshold(nodeName.equals("a") ? 3 : 4);
				}

			})
			.run((context) -> {
				CridNodes nodes = context.getBean(CridNodes.class);
				assertThat(nodes.get("default").threshold()).isEqualTo(4);
				assertThat(nodes.get("a").threshold()).isEqualTo(3);
			});
	}

	@Test
	void aNameThatIsNoIdentifierStopsStartUpNamingTheProperty() {
		this.runner.withPropertyValues("crid.nodes.my-node.block-size=10").run((context) -> {
			FailureAnalysis analysis = StartupFailures.analyze(context);
			assertThat(analysis.getDescription()).contains("Property: crid.nodes.my-node")
				.contains("letters, digits and underscores");
		});
	}

	@Test
	void theNameDefaultStopsStartUp() {
		this.runner.withPropertyValues("crid.nodes.default.block-size=10").run((context) -> {
			FailureAnalysis analysis = StartupFailures.analyze(context);
			assertThat(analysis.getDescription()).contains("Property: crid.nodes.default")
				.contains("must not be 'default', the name of the node that crid.* configures");
		});
	}

	@Test
	void anInvalidSettingOfANamedNodeNamesTheNodesProperty() {
		this.runner.withPropertyValues("crid.nodes.a.block-size=0").run((context) -> {
			FailureAnalysis analysis = StartupFailures.analyze(context);
			assertThat(analysis.getDescription()).contains("Property: crid.nodes.a.block-size")
				.contains("Value: 0")
				.doesNotContain("Property: crid.block-size");
			assertThat(analysis.getAction()).contains("crid.nodes.a.block-size");
		});
	}

	@Test
	void aNamedNodeTakesTheThresholdOfCridEvenWhereItsOwnBlockIsSmallerAndIsRefusedSayingSo() {
		this.runner.withPropertyValues("crid.threshold=400", "crid.nodes.a.block-size=100").run((context) -> {
			FailureAnalysis analysis = StartupFailures.analyze(context);
			assertThat(analysis.getDescription()).contains("Property: crid.nodes.a.threshold\n    Value: 400\n")
				.contains("must not exceed blockSize 100");
			assertThat(analysis.getAction())
				.contains("Set crid.nodes.a.threshold no higher than crid.nodes.a.block-size");
		});
	}

	@Test
	void aNamedNodeThatSetsAnotherKindOfRegistryIsRefused() {
		this.runner.withPropertyValues("crid.nodes.a.registry.type=jdbc").run((context) -> {
			FailureAnalysis analysis = StartupFailures.analyze(context);
			assertThat(analysis.getDescription()).contains("Property: crid.nodes.a.registry.type\n")
				.contains("the default node's kind of registry (crid.registry.type, memory)");
		});
	}

	@Test
	void namedNodesNeedAFactoryWhenTheApplicationDefinesItsOwnRegistry() {
		this.runner.withPropertyValues(SMALL_NODE_A)
			.withBean(Registry.class, () -> (timestamp, blockSize) -> 0)
			.run((context) -> {
				FailureAnalysis analysis = StartupFailures.analyze(context);
				assertThat(analysis.getDescription()).contains("crid.nodes.a names a node")
					.contains("its own dev.crid.Registry bean");
				assertThat(analysis.getAction()).contains("CridRegistryFactory");
			});
	}

	@Test
	void onADatabaseEachNamedNodeHasATableOfItsOwn() {
		this.withH2.withPropertyValues(JAVASCRIPT_SAFE, JAVASCRIPT_SAFE_SEQUENCE).run((context) -> {
			assertThat(context).hasNotFailed();
			CridNodes nodes = context.getBean(CridNodes.class);
			assertThat(nodes.registry("public")).isInstanceOf(JdbcTemplateRegistry.class);
			assertThat(((JdbcTemplateRegistry) nodes.registry("public")).tableName())
				.isEqualTo("crid_public_allocations");
			long defaultId = nodes.get("default").nextId();
			long publicId = nodes.get("public").nextId();
			JdbcTemplate jdbc = new JdbcTemplate(context.getBean(DataSource.class));
			assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM crid_allocations", Long.class)).isPositive();
			assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM crid_public_allocations", Long.class)).isPositive();
			assertThat(nodes.get("public").parser().parse(publicId).timestamp())
				.isEqualTo(nodes.get("default").parser().parse(defaultId).timestamp());
		});
	}

	@Test
	void twoNodesOnOneTableWithDifferentLayoutsAreRefusedNamingBoth() {
		this.withH2
			.withPropertyValues(JAVASCRIPT_SAFE, JAVASCRIPT_SAFE_SEQUENCE,
					"crid.nodes.public.registry.jdbc.table-name=crid_allocations")
			.run((context) -> {
				FailureAnalysis analysis = StartupFailures.analyze(context);
				// Whichever node is created second is refused, naming the other.
				assertThat(analysis.getDescription()).contains("'crid_allocations'")
					.containsAnyOf(
							"used by the default node (crid.*) with another layout than that of the node "
									+ "'public' (crid.nodes.public.*)",
							"used by the node 'public' (crid.nodes.public.*) with "
									+ "another layout than that of the default node (crid.*)");
				assertThat(analysis.getDescription()).contains("41 timestamp bits").contains("31 timestamp bits");
			});
	}

	@Test
	void healthEndpointAndMetersCoverEachNode() {
		this.runner
			.withConfiguration(AutoConfigurations.of(CridHealthContributorAutoConfiguration.class,
					CridMetricsAutoConfiguration.class, CridEndpointAutoConfiguration.class))
			.withPropertyValues(JAVASCRIPT_SAFE, JAVASCRIPT_SAFE_SEQUENCE,
					"management.endpoints.web.exposure.include=crid")
			.withBean(SimpleMeterRegistry.class)
			.run((context) -> {
				assertThat(context).doesNotHaveBean(CridHealthIndicator.class);
				CompositeHealthContributor health = context.getBean("cridHealthContributor",
						CompositeHealthContributor.class);
				HealthContributor publicHealth = health.getContributor("public");
				assertThat(publicHealth).isInstanceOf(CridHealthIndicator.class);
				assertThat(((CridHealthIndicator) publicHealth).health().getStatus()).isEqualTo(Status.UP);
				assertThat(((CridHealthIndicator) publicHealth).health().getDetails().get("layout").toString())
					.contains("41");
				assertThat(health.getContributor("default")).isInstanceOf(CridHealthIndicator.class);

				CridEndpoint endpoint = context.getBean(CridEndpoint.class);
				Map<String, CridEndpoint.NodeDescriptor> described = endpoint.crid().nodes();
				assertThat(described).containsOnlyKeys("default", "public");
				assertThat(described.get("public").layout().timestampBits()).isEqualTo(41);
				CridNode publicNode = context.getBean(CridNodes.class).get("public");
				long id = publicNode.nextId();
				assertThat(endpoint.decode("public", Long.toString(id), null).sequence())
					.isEqualTo(publicNode.parser().parse(id).sequence());
				// Read with the default layout the same ID falls in another second. Its
				// sequence agrees in one second of 1,024 (the second's low ten bits land
				// in it), so it tells nothing.
				assertThat(endpoint.decode("public", Long.toString(id), null).timestamp())
					.isEqualTo(publicNode.parser().parse(id).timestamp())
					.isNotEqualTo(endpoint.decode(Long.toString(id)).timestamp());
				assertThatExceptionOfType(InvalidEndpointRequestException.class)
					.isThrownBy(() -> endpoint.decode("nobody", "1", null))
					.withMessageContaining("[default, public]");

				MeterRegistry meters = context.getBean(MeterRegistry.class);
				context.getBeansOfType(MeterBinder.class).values().forEach((binder) -> binder.bindTo(meters));
				publicNode.nextIds(3);
				assertThat(meters.get("crid.ids.issued").tag("node", "public").functionCounter().count())
					.isEqualTo(publicNode.stats().idsIssued());
				assertThat(meters.get("crid.ids.issued").tag("node", "default").functionCounter()).isNotNull();
			});
	}

	@Configuration(proxyBeanMethods = false)
	static class InjectsNodes {

		CridNode defaultNode;

		CridNode publicNode;

		@Bean
		List<Object> injected(CridNode cridNode, @Qualifier("public") CridNode publicNode) {
			this.defaultNode = cridNode;
			this.publicNode = publicNode;
			return List.of(cridNode, publicNode);
		}

	}

}
