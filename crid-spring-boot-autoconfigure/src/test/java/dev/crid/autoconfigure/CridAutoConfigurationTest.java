package dev.crid.autoconfigure;

import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Collectors;

import javax.sql.DataSource;

import dev.crid.autoconfigure.registry.CridRegistryAutoConfiguration;
import dev.crid.CridLayout;
import dev.crid.CridNode;
import dev.crid.CridParser;
import dev.crid.InMemoryRegistry;
import dev.crid.Registry;
import dev.crid.jdbc.JdbcDialect;
import dev.crid.jdbc.JdbcTemplateRegistry;
import dev.crid.actuate.endpoint.CridEndpoint;
import dev.crid.autoconfigure.endpoint.CridEndpointAutoConfiguration;
import dev.crid.autoconfigure.health.CridHealthContributorAutoConfiguration;
import dev.crid.actuate.health.CridHealthIndicator;
import dev.crid.autoconfigure.jackson.CridJacksonAutoConfiguration;
import dev.crid.jackson.CridJacksonModule;
import dev.crid.micrometer.CridMeterBinder;
import dev.crid.autoconfigure.metrics.CridMetricsAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.annotation.Order;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseBuilder;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseType;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link CridAutoConfiguration}: registry choice, backing off, properties,
 * customizers, the node's life cycle and the failure analysis of bad configuration. No
 * server; H2 where a database is needed.
 */
@ExtendWith(OutputCaptureExtension.class)
class CridAutoConfigurationTest {

	private static final String IN_MEMORY_WARNING = "IDs are unique only within this process";

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(CridRegistryAutoConfiguration.class, CridAutoConfiguration.class));

	private final ApplicationContextRunner withH2 = this.runner
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class));

	@Test
	void usesInMemoryRegistryAndWarnsOnceWithoutDataSource(CapturedOutput output) {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(CridNode.class).hasSingleBean(CridParser.class);
			assertThat(context).getBean(Registry.class).isInstanceOf(InMemoryRegistry.class);
			assertThat(context.getBean(CridNode.class).nextId()).isPositive();
		});
		assertThat(occurrences(output.getAll(), IN_MEMORY_WARNING)).isEqualTo(1);
		assertThat(output).contains("WARN").contains("jdbc needs a DataSource bean");
	}

	@Test
	void usesInMemoryRegistryWithoutWarningWhenAskedFor(CapturedOutput output) {
		this.withH2.withPropertyValues("crid.registry.type=memory").run((context) -> {
			assertThat(context).hasSingleBean(DataSource.class);
			assertThat(context).getBean(Registry.class).isInstanceOf(InMemoryRegistry.class);
		});
		assertThat(output).doesNotContain("WARN");
	}

	@Test
	void usesDatabaseRegistryAndCreatesTableOnEmbeddedDatabase() {
		this.withH2.run((context) -> {
			assertThat(context).getBean(Registry.class).isInstanceOf(JdbcTemplateRegistry.class);
			JdbcTemplateRegistry registry = context.getBean(JdbcTemplateRegistry.class);
			assertThat(registry.tableName()).isEqualTo(JdbcTemplateRegistry.DEFAULT_TABLE_NAME);
			assertThat(registry.dialect()).isEqualTo(JdbcDialect.H2);
			CridNode node = context.getBean(CridNode.class);
			Set<Long> ids = new HashSet<>();
			for (int i = 0; i < 25_000; i++) {
				ids.add(node.nextId());
			}
			assertThat(ids).hasSize(25_000);
			Long reserved = new JdbcTemplate(context.getBean(DataSource.class))
				.queryForObject("SELECT SUM(next_seq) FROM crid_allocations", Long.class);
			assertThat(reserved).isGreaterThanOrEqualTo(25_000);
		});
	}

	@Test
	void usesTheConfiguredTableName() {
		this.withH2.withPropertyValues("crid.registry.type=jdbc", "crid.registry.jdbc.table-name=my_ids")
			.run((context) -> {
				assertThat(context.getBean(JdbcTemplateRegistry.class).tableName()).isEqualTo("my_ids");
				context.getBean(CridNode.class).nextId();
				assertThat(new JdbcTemplate(context.getBean(DataSource.class))
					.queryForObject("SELECT COUNT(*) FROM my_ids", Integer.class)).isEqualTo(1);
			});
	}

	@Test
	void neverCreatesTheTableAndFailsWithTheScriptWhenItIsMissing() {
		this.withH2
			.withPropertyValues("crid.registry.jdbc.initialize-schema=never",
					"crid.registry.jdbc.table-name=absent_ids")
			.run((context) -> {
				FailureAnalysis analysis = StartupFailures.analyze(context);
				assertThat(analysis.getDescription())
					.contains("Property: crid.registry.jdbc.initialize-schema\n    Value: \"never\"\n")
					.contains("left the table 'absent_ids' uncreated, and it does not exist")
					.contains("dev/crid/jdbc/schema-h2.sql")
					.containsIgnoringCase("CREATE TABLE")
					.doesNotContain(JdbcTemplateRegistry.DEFAULT_TABLE_NAME);
				assertThat(analysis.getAction()).contains("crid.registry.jdbc.initialize-schema=always");
			});
	}

	@Test
	void neverStartsWhenTheTableExists() {
		this.runner.withUserConfiguration(PreparedH2.class)
			.withPropertyValues("crid.registry.jdbc.initialize-schema=never")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(CridNode.class).nextId()).isPositive();
			});
	}

	@Test
	void preparesTheTableBeforeAReservationDuringStartUp() {
		this.withH2.withUserConfiguration(EarlyUser.class).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(EarlyUser.class).firstId).isPositive();
		});
	}

	@Test
	void failsWhenJdbcIsRequiredWithoutDataSource() {
		this.runner.withPropertyValues("crid.registry.type=jdbc").run((context) -> {
			FailureAnalysis analysis = StartupFailures.analyze(context);
			assertThat(analysis.getDescription()).contains("Property: crid.registry.type")
				.contains("Value: \"jdbc\"")
				.contains("a DataSource bean (spring.datasource.url");
			assertThat(analysis.getAction()).contains("crid.registry.type");
		});
	}

	@Test
	void failsWhenJdbcIsRequiredWithoutCridJdbc() {
		this.withH2.withClassLoader(new FilteredClassLoader(JdbcTemplateRegistry.class))
			.withPropertyValues("crid.registry.type=jdbc")
			.run((context) -> {
				FailureAnalysis analysis = StartupFailures.analyze(context);
				assertThat(analysis.getDescription()).contains("dev.crid:crid-jdbc on the classpath")
					.doesNotContain("DataSource bean");
				assertThat(analysis.getAction()).contains("crid.registry.type");
			});
	}

	@Test
	void fallsBackToInMemoryWithoutCridJdbcAndSaysWhy(CapturedOutput output) {
		this.withH2.withClassLoader(new FilteredClassLoader(JdbcTemplateRegistry.class)).run((context) -> {
			assertThat(context).hasSingleBean(DataSource.class);
			assertThat(context).getBean(Registry.class).isInstanceOf(InMemoryRegistry.class);
		});
		assertThat(output).contains("jdbc needs dev.crid:crid-jdbc on the classpath").contains(IN_MEMORY_WARNING);
	}

	@Test
	void failsWithSeveralDataSourcesNeitherQualifiedNorPrimary() {
		this.runner.withUserConfiguration(TwoDataSources.class).run((context) -> {
			FailureAnalysis analysis = StartupFailures.analyze(context);
			assertThat(analysis.getDescription())
				.contains("the application has several, none is @CridDataSource and none is @Primary");
			assertThat(analysis.getAction()).contains("with @dev.crid.autoconfigure.CridDataSource")
				.contains("@Primary");
		});
	}

	@Test
	void backsOffWhenUserDefinesRegistry() {
		this.withH2.withUserConfiguration(UserRegistry.class).run((context) -> {
			assertThat(context).hasSingleBean(Registry.class);
			assertThat(context.getBean(Registry.class)).isSameAs(context.getBean("userRegistry"));
			assertThat(context).hasSingleBean(CridNode.class);
		});
	}

	@Test
	void backsOffWhenUserDefinesNodeAndParser() {
		this.runner.withUserConfiguration(UserNode.class).run((context) -> {
			assertThat(context).hasSingleBean(CridNode.class);
			assertThat(context.getBean(CridNode.class)).isSameAs(context.getBean("userNode"));
			assertThat(context.getBean(CridParser.class)).isSameAs(context.getBean("userParser"));
		});
	}

	@Test
	void parserFollowsTheUsersNode() {
		this.runner.withUserConfiguration(UserNodeOnly.class).run((context) -> {
			assertThat(context.getBean(CridParser.class).layout()).isEqualTo(context.getBean(CridNode.class).layout())
				.isNotEqualTo(CridLayout.DEFAULT);
		});
	}

	@Test
	void switchedOffByProperty() {
		this.withH2
			.withConfiguration(AutoConfigurations.of(CridJacksonAutoConfiguration.class,
					CridHealthContributorAutoConfiguration.class, CridEndpointAutoConfiguration.class,
					CridMetricsAutoConfiguration.class))
			.withPropertyValues("crid.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(CridNode.class)
				.doesNotHaveBean(Registry.class)
				.doesNotHaveBean(CridParser.class)
				.doesNotHaveBean(CridProperties.class)
				.doesNotHaveBean(CridJacksonModule.class)
				.doesNotHaveBean(CridHealthIndicator.class)
				.doesNotHaveBean(CridEndpoint.class)
				.doesNotHaveBean(CridMeterBinder.class));
	}

	@Test
	void backsOffWithoutCridCore() {
		this.runner.withClassLoader(new FilteredClassLoader(CridNode.class))
			.run((context) -> assertThat(context).doesNotHaveBean(Registry.class)
				.doesNotHaveBean(CridProperties.class));
	}

	@Test
	void appliesEveryProperty() {
		this.runner
			.withPropertyValues("crid.epoch=2020-01-01T00:00:00Z", "crid.timestamp-bits=41", "crid.sequence-bits=22",
					"crid.block-size=500", "crid.threshold=100", "crid.allocation-timeout=750ms",
					"crid.max-clock-skew=7s", "crid.runway=30s")
			.run((context) -> {
				CridNode node = context.getBean(CridNode.class);
				assertThat(node.layout()).isEqualTo(CridLayout.of(Instant.parse("2020-01-01T00:00:00Z"), 41, 22));
				assertThat(node.blockSize()).isEqualTo(500);
				assertThat(node.threshold()).isEqualTo(100);
				assertThat(node.allocationTimeout()).isEqualTo(Duration.ofMillis(750));
				assertThat(node.maxClockSkew()).isEqualTo(Duration.ofSeconds(7));
				assertThat(node.runway()).isEqualTo(Duration.ofSeconds(30));
				assertThat(context.getBean(CridParser.class).layout()).isEqualTo(node.layout());
				long id = node.nextId();
				assertThat(context.getBean(CridParser.class).parse(id).timestamp())
					.isBetween(Instant.now().minusSeconds(5), Instant.now());
			});
	}

	@Test
	void defaultsAreCoresDefaults() {
		this.runner.run((context) -> {
			CridNode node = context.getBean(CridNode.class);
			assertThat(node.layout()).isEqualTo(CridLayout.DEFAULT);
			assertThat(node.blockSize()).isEqualTo(CridNode.DEFAULT_BLOCK_SIZE);
			assertThat(node.threshold()).isEqualTo(CridNode.DEFAULT_THRESHOLD);
			assertThat(node.allocationTimeout()).isEqualTo(CridNode.DEFAULT_ALLOCATION_TIMEOUT);
			assertThat(node.maxClockSkew()).isEqualTo(CridNode.DEFAULT_MAX_CLOCK_SKEW);
			CridProperties properties = context.getBean(CridProperties.class);
			assertThat(properties.getRegistry().getType()).isEqualTo(RegistryType.AUTO);
			assertThat(properties.getRegistry().getJdbc().getTableName())
				.isEqualTo(JdbcTemplateRegistry.DEFAULT_TABLE_NAME);
			assertThat(properties.getRegistry().getJdbc().getInitializeSchema())
				.isEqualTo(DatabaseInitializationMode.EMBEDDED);
		});
	}

	@Test
	void appliesCustomizersInOrderAfterTheProperties() {
		this.runner.withUserConfiguration(Customizers.class)
			.withPropertyValues("crid.block-size=500")
			.run((context) -> {
				CridNode node = context.getBean(CridNode.class);
				assertThat(node.blockSize()).isEqualTo(300);
				assertThat(node.threshold()).isEqualTo(0);
			});
	}

	@Test
	void closesTheNodeAndStopsItsThreadWithTheContext() {
		Set<Thread> before = prefetchThreads();
		CridNode[] node = new CridNode[1];
		Set<Thread> started = new HashSet<>();
		this.runner.withPropertyValues("crid.block-size=10", "crid.threshold=5").run((context) -> {
			node[0] = context.getBean(CridNode.class);
			for (int i = 0; i < 30; i++) {
				node[0].nextId();
			}
			await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
				started.addAll(prefetchThreads());
				started.removeAll(before);
				assertThat(started).isNotEmpty();
			});
			assertThat(node[0].isClosed()).isFalse();
		});
		assertThat(node[0].isClosed()).isTrue();
		await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(started).noneMatch(Thread::isAlive));
	}

	@Test
	void failsOnBlockSizeOutOfRange() {
		assertInvalid("crid.block-size=0", "Property: crid.block-size", "Value: 0",
				"between 1 and 2^crid.sequence-bits");
		assertInvalid("crid.block-size=4294967297", "Property: crid.block-size", "Value: 4294967297",
				"crid.block-size");
	}

	@Test
	void failsOnThresholdAboveBlockSize() {
		assertInvalid("crid.threshold=20000", "Property: crid.threshold", "Value: 20000",
				"no higher than crid.block-size");
	}

	@Test
	void failsOnBitSplitNotAddingUpTo63() {
		assertInvalid("crid.timestamp-bits=40", "Property: crid.timestamp-bits + crid.sequence-bits", "Value: 72",
				"must be 63 (40 + 32)", "adds up to 63");
	}

	@Test
	void failsOnBitsOutOfRange() {
		assertInvalid("crid.sequence-bits=64", "Property: crid.sequence-bits", "Value: 64", "crid.sequence-bits");
	}

	@Test
	void failsOnFutureEpoch() {
		assertInvalid("crid.epoch=2999-01-01T00:00:00Z", "Property: crid.epoch", "Value: 2999-01-01T00:00:00Z",
				"instant in the past");
	}

	@Test
	void failsOnAllocationTimeoutOutOfRange() {
		assertInvalid("crid.allocation-timeout=0s", "Property: crid.allocation-timeout", "Value: PT0S",
				"positive duration");
	}

	@Test
	void failsOnInvalidTableName() {
		this.withH2.withPropertyValues("crid.registry.jdbc.table-name=ids; DROP TABLE users").run((context) -> {
			FailureAnalysis analysis = StartupFailures.analyze(context);
			assertThat(analysis.getDescription()).contains("Property: crid.registry.jdbc.table-name")
				.contains("Value: \"ids; DROP TABLE users\"");
			assertThat(analysis.getAction()).contains("crid.registry.jdbc.table-name").contains("schema.name");
		});
	}

	@Test
	void failsOnAnUnknownRegistryTypeNamingTheProperty() {
		this.runner.withPropertyValues("crid.registry.type=zookeeper").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("zookeeper");
			assertThat(context.getStartupFailure()).hasStackTraceContaining("crid.registry.type");
		});
	}

	@Test
	void failsOnQueryTimeoutOutOfRange() {
		this.withH2.withPropertyValues("crid.registry.jdbc.query-timeout=0s").run((context) -> {
			FailureAnalysis analysis = StartupFailures.analyze(context);
			assertThat(analysis.getDescription()).contains("Property: crid.registry.jdbc.query-timeout")
				.contains("Value: PT0S");
			assertThat(analysis.getAction()).contains("crid.registry.jdbc.query-timeout");
		});
	}

	@Test
	void reportsEveryViolationAtOnce() {
		this.runner.withPropertyValues("crid.block-size=0", "crid.allocation-timeout=0s").run((context) -> {
			FailureAnalysis analysis = StartupFailures.analyze(context);
			assertThat(analysis.getDescription()).contains("Property: crid.block-size")
				.contains("Property: crid.allocation-timeout");
			assertThat(analysis.getAction()).contains("crid.block-size").contains("crid.allocation-timeout");
		});
	}

	@Test
	void failureAnalysisIsPrintedWhenAnApplicationFailsToStart(CapturedOutput output) {
		SpringApplicationBuilder application = new SpringApplicationBuilder(CridOnly.class).web(WebApplicationType.NONE)
			.properties("crid.block-size=0", "crid.registry.type=memory");
		assertThatThrownBy(application::run).hasRootCauseInstanceOf(dev.crid.InvalidConfigException.class);
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("Property: crid.block-size")
			.contains("Update your application's configuration");
	}

	@Test
	void theNodeReservesItsFirstBlockAtStartUp() {
		this.withH2.run((context) -> {
			CridNode node = context.getBean(CridNode.class);
			assertThat(node.stats().nextBlockReady()).isTrue();
			assertThat(node.stats().prefetchAllocations().successes()).isOne();
			assertThat(new JdbcTemplate(context.getBean(DataSource.class))
				.queryForObject("SELECT timestamp_bits FROM crid_allocations_meta", Integer.class))
				.as("the layout recorded at start-up")
				.isEqualTo(CridLayout.DEFAULT_TIMESTAMP_BITS);
			node.nextId();
			assertThat(node.stats().stalls()).isZero();
		});
	}

	@Test
	void aRegistryUsedWithAnotherLayoutStopsStartUpNamingBoth() {
		InMemoryRegistry shared = new InMemoryRegistry();
		shared.checkLayout(CridLayout.of(CridLayout.DEFAULT_EPOCH, 32, 31));
		this.runner.withBean(Registry.class, () -> shared).run((context) -> {
			FailureAnalysis analysis = StartupFailures.analyze(context);
			assertThat(analysis.getDescription()).contains("another layout")
				.contains("Registry: epoch 2026-01-01T00:00:00Z, 32 timestamp bits, 31 sequence bits")
				.contains("The default node (crid.*): epoch 2026-01-01T00:00:00Z, 31 timestamp bits, 32 sequence bits");
			assertThat(analysis.getAction()).contains("crid.timestamp-bits=32", "crid.sequence-bits=31");
		});
	}

	@Test
	void theRetentionReachesTheRegistry() {
		this.withH2.withPropertyValues("crid.registry.jdbc.retention=2h")
			.run((context) -> assertThat(context.getBean(JdbcTemplateRegistry.class).retention())
				.isEqualTo(Duration.ofHours(2)));
		this.withH2.withPropertyValues("crid.registry.jdbc.retention=0")
			.run((context) -> assertThat(context.getBean(JdbcTemplateRegistry.class).retention()).isNull());
		this.withH2.run((context) -> assertThat(context.getBean(JdbcTemplateRegistry.class).retention())
			.isEqualTo(JdbcTemplateRegistry.DEFAULT_RETENTION));
	}

	@Test
	void invalidClockSkewAndRetentionStopStartUpNamingTheProperty() {
		assertInvalid("crid.max-clock-skew=0s", "Property: crid.max-clock-skew", "Value: PT0S", "positive");
		assertInvalid("crid.runway=-1s", "Property: crid.runway", "Value: PT-1S", "at most one day");
		this.withH2.withPropertyValues("crid.registry.jdbc.retention=-1s").run((context) -> {
			FailureAnalysis analysis = StartupFailures.analyze(context);
			assertThat(analysis.getDescription()).contains("Property: crid.registry.jdbc.retention", "Value: PT-1S");
			assertThat(analysis.getAction()).contains("crid.registry.jdbc.retention");
		});
		this.withH2.withPropertyValues("crid.registry.jdbc.retention=30s", "crid.max-clock-skew=1m").run((context) -> {
			FailureAnalysis analysis = StartupFailures.analyze(context);
			assertThat(analysis.getDescription()).contains("Property: crid.registry.jdbc.retention", "Value: PT30S",
					"must exceed crid.max-clock-skew (PT1M)");
		});
	}

	private void assertInvalid(String property, String... expected) {
		this.runner.withPropertyValues(property).run((context) -> {
			FailureAnalysis analysis = StartupFailures.analyze(context);
			String text = analysis.getDescription() + "\n" + analysis.getAction();
			assertThat(text).contains(expected);
		});
	}

	private static int occurrences(String text, String part) {
		int count = 0;
		for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
			count++;
		}
		return count;
	}

	private static Set<Thread> prefetchThreads() {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> thread.getName().startsWith("crid-prefetch-"))
			.collect(Collectors.toSet());
	}

	@Configuration(proxyBeanMethods = false)
	@Import({ CridRegistryAutoConfiguration.class, CridAutoConfiguration.class })
	static class CridOnly {

	}

	@Configuration(proxyBeanMethods = false)
	static class PreparedH2 {

		@Bean(destroyMethod = "shutdown")
		DataSource dataSource() {
			var dataSource = new EmbeddedDatabaseBuilder().setType(EmbeddedDatabaseType.H2)
				.generateUniqueName(true)
				.build();
			JdbcTemplateRegistry.builder(new JdbcTemplate(dataSource)).build().ensureSchema();
			return dataSource;
		}

	}

	static class EarlyUser {

		final long firstId;

		EarlyUser(CridNode node) {
			this.firstId = node.nextId();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class TwoDataSources {

		@Bean(destroyMethod = "shutdown")
		DataSource first() {
			return new EmbeddedDatabaseBuilder().setType(EmbeddedDatabaseType.H2).generateUniqueName(true).build();
		}

		@Bean(destroyMethod = "shutdown")
		DataSource second() {
			return new EmbeddedDatabaseBuilder().setType(EmbeddedDatabaseType.H2).generateUniqueName(true).build();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserRegistry {

		@Bean
		Registry userRegistry() {
			return new InMemoryRegistry();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserNode {

		@Bean(destroyMethod = "close")
		CridNode userNode() {
			return CridNode.builder(new InMemoryRegistry()).build();
		}

		@Bean
		CridParser userParser() {
			return CridParser.of(CridLayout.DEFAULT);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserNodeOnly {

		@Bean(destroyMethod = "close")
		CridNode userNode() {
			return CridNode.builder(new InMemoryRegistry()).timestampBits(41).sequenceBits(22).build();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class Customizers {

		@Bean
		@Order(2)
		CridNodeCustomizer second() {
			return (builder) -> builder.blockSize(300);
		}

		@Bean
		@Order(1)
		CridNodeCustomizer first() {
			return (builder) -> builder.blockSize(100).threshold(0);
		}

	}

}
