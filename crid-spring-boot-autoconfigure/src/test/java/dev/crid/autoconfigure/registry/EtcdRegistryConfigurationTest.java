package dev.crid.autoconfigure.registry;

import java.time.Duration;
import java.util.Map;

import javax.sql.DataSource;

import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.actuate.autoconfigure.context.properties.ConfigurationPropertiesReportEndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.env.EnvironmentEndpointAutoConfiguration;
import org.springframework.boot.actuate.context.properties.ConfigurationPropertiesReportEndpoint;
import org.springframework.boot.actuate.endpoint.SanitizingFunction;
import org.springframework.boot.actuate.env.EnvironmentEndpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import dev.crid.InMemoryRegistry;
import dev.crid.Registry;
import dev.crid.autoconfigure.CridAutoConfiguration;
import dev.crid.autoconfigure.CridConfigurationException;
import dev.crid.autoconfigure.StartupFailures;
import dev.crid.etcd.EtcdRegistry;
import dev.crid.jdbc.JdbcTemplateRegistry;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The etcd registry: where the choice of a registry takes it, its properties, the
 * settings it refuses, and its password, which nothing shows. None of these contacts
 * etcd: neither the client nor the registry does until a node reserves, and these
 * contexts have no node. {@code EtcdApplicationIntegrationTest} runs an application on a
 * real cluster.
 */
@ExtendWith(OutputCaptureExtension.class)
class EtcdRegistryConfigurationTest {

	private static final String ENDPOINTS = "crid.registry.etcd.endpoints=http://127.0.0.1:1,http://127.0.0.1:2";

	private static final String SECRET = "pa55-w0rd-never-shown";

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(CridRegistryAutoConfiguration.class));

	private static DataSource h2DataSource() {
		JdbcDataSource dataSource = new JdbcDataSource();
		dataSource.setURL("jdbc:h2:mem:crid-etcd-auto;DB_CLOSE_DELAY=-1");
		return dataSource;
	}

	@Test
	void etcdBindsEveryPropertyToTheRegistry() {
		this.runner
			.withPropertyValues("crid.registry.type=etcd", ENDPOINTS, "crid.registry.etcd.key-prefix=orders/crid/",
					"crid.registry.etcd.timeout=1500ms", "crid.registry.etcd.retention=2h",
					"crid.registry.etcd.username=orders", "crid.registry.etcd.password=" + SECRET)
			.run((context) -> {
				assertThat(context).hasNotFailed()
					.hasSingleBean(EtcdRegistry.class)
					.hasSingleBean(EtcdClientHolder.class);
				EtcdRegistry registry = context.getBean(EtcdRegistry.class);
				assertThat(registry.keyPrefix()).isEqualTo("orders/crid/");
				assertThat(registry.timeout()).isEqualTo(Duration.ofMillis(1500));
				assertThat(registry.retention()).isEqualTo(Duration.ofHours(2));
				assertThat(registry.kind()).isEqualTo("etcd");
			});
	}

	@Test
	void etcdDefaultsToTheLibrarysSettings() {
		this.runner.withPropertyValues("crid.registry.type=etcd", ENDPOINTS).run((context) -> {
			EtcdRegistry registry = context.getBean(EtcdRegistry.class);
			assertThat(registry.keyPrefix()).isEqualTo(EtcdRegistry.DEFAULT_KEY_PREFIX);
			assertThat(registry.timeout()).isEqualTo(EtcdRegistry.DEFAULT_TIMEOUT);
			assertThat(registry.retention()).isEqualTo(EtcdRegistry.DEFAULT_RETENTION);
		});
	}

	@Test
	void autoWithEndpointsChoosesEtcdOverADataSource() {
		this.runner.withBean(DataSource.class, EtcdRegistryConfigurationTest::h2DataSource)
			.withPropertyValues(ENDPOINTS)
			.run((context) -> assertThat(context).hasNotFailed()
				.getBean(Registry.class)
				.isInstanceOf(EtcdRegistry.class));
	}

	@Test
	void autoWithoutEndpointsLeavesCridEtcdOnTheClasspathUnused() {
		this.runner.withBean(DataSource.class, EtcdRegistryConfigurationTest::h2DataSource)
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(EtcdClientHolder.class)
				.getBean(Registry.class)
				.isInstanceOf(JdbcTemplateRegistry.class));
		this.runner.run((context) -> assertThat(context).hasNotFailed()
			.doesNotHaveBean(EtcdClientHolder.class)
			.getBean(Registry.class)
			.isInstanceOf(InMemoryRegistry.class));
	}

	@Test
	void autoWithEndpointsButWithoutCridEtcdStopsStartUpRatherThanUseAnotherRegistry() {
		this.runner.withClassLoader(new FilteredClassLoader(EtcdRegistry.class))
			.withBean(DataSource.class, EtcdRegistryConfigurationTest::h2DataSource)
			.withPropertyValues(ENDPOINTS)
			.run((context) -> assertThat(StartupFailures.cridFailure(context.getStartupFailure())).isNotNull()
				.hasMessageContaining("Property: crid.registry.etcd.endpoints\n"
						+ "    Value: \"http://127.0.0.1:1,http://127.0.0.1:2\"\n")
				.hasMessageContaining("crid.registry.type=auto chooses the etcd registry, which needs what the "
						+ "application lacks: dev.crid:crid-etcd on the classpath"));
	}

	@Test
	void etcdWithoutCridEtcdOrEndpointsStopsStartUpSayingWhatIsMissing() {
		this.runner.withClassLoader(new FilteredClassLoader(EtcdRegistry.class))
			.withPropertyValues("crid.registry.type=etcd")
			.run((context) -> assertThat(StartupFailures.cridFailure(context.getStartupFailure())).isNotNull()
				.hasMessageContaining("Property: crid.registry.type\n    Value: \"etcd\"\n")
				.hasMessageContaining("needs what the application lacks: dev.crid:crid-etcd on the classpath, "
						+ "crid.registry.etcd.endpoints (the client URLs of the etcd cluster's members)"));
	}

	@Test
	void otherKindsAskedForIgnoreTheEndpoints() {
		this.runner.withPropertyValues(ENDPOINTS, "crid.registry.type=memory")
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(EtcdClientHolder.class)
				.getBean(Registry.class)
				.isInstanceOf(InMemoryRegistry.class));
	}

	@Test
	void backsOffWhenTheUserDefinesARegistry() {
		this.runner.withPropertyValues(ENDPOINTS)
			.withBean("myRegistry", Registry.class, InMemoryRegistry::new)
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(EtcdRegistry.class)
				.doesNotHaveBean(EtcdClientHolder.class)
				.getBeans(Registry.class)
				.containsOnlyKeys("myRegistry"));
	}

	@Test
	void endpointsThatAreNoHttpUrlsAreEachReportedAndCredentialsInThemAreNotShown() {
		this.runner
			.withPropertyValues("crid.registry.etcd.endpoints=etcd-1:2379,https://etcd-2:2379,http://root:" + SECRET
					+ "@etcd-3:2379,http://etcd-4")
			.run((context) -> {
				CridConfigurationException failure = StartupFailures.cridFailure(context.getStartupFailure());
				assertThat(failure).isNotNull();
				assertThat(failure.violations()).hasSize(4);
				assertThat(failure.getMessage())
					.contains("Value: \"etcd-1:2379\"\n"
							+ "    Reason: must be an http URL with a host and a port, such as http://etcd-1:2379")
					.contains("Value: \"https://etcd-2:2379\"\n"
							+ "    Reason: must be an http URL: crid's client has no TLS settings")
					.contains("Value: \"http://******@etcd-3:2379\"\n    Reason: must not hold credentials")
					.contains("Value: \"http://etcd-4\"\n")
					.doesNotContain(SECRET);
				assertThat(failure.action()).contains("for TLS, define an EtcdRegistry bean of your own");
			});
	}

	@Test
	void settingsTheRegistryRefusesAreReportedTogetherByTheirProperties() {
		this.runner
			.withPropertyValues("crid.registry.type=etcd", ENDPOINTS, "crid.registry.etcd.key-prefix=crid/\u0007/",
					"crid.registry.etcd.timeout=0s")
			.run((context) -> assertThat(StartupFailures.cridFailure(context.getStartupFailure())).isNotNull()
				.hasMessageContaining("Property: crid.registry.etcd.key-prefix\n    Value: \"crid/\u0007/\"\n"
						+ "    Reason: must not be empty nor hold control characters")
				.hasMessageContaining("Property: crid.registry.etcd.timeout\n    Value: PT0S\n"
						+ "    Reason: must be in (PT0S, PT24H]"));
	}

	@Test
	void aRetentionWithinTheClockSkewIsRefused() {
		this.runner.withPropertyValues(ENDPOINTS, "crid.registry.etcd.retention=30s", "crid.max-clock-skew=1m")
			.run((context) -> assertThat(StartupFailures.cridFailure(context.getStartupFailure())).isNotNull()
				.hasMessageContaining("Property: crid.registry.etcd.retention\n    Value: PT30S\n"
						+ "    Reason: must exceed crid.max-clock-skew (PT1M)"));
	}

	@Test
	void aUsernameWithoutPasswordIsRefused() {
		this.runner.withPropertyValues(ENDPOINTS, "crid.registry.etcd.username=orders")
			.run((context) -> assertThat(StartupFailures.cridFailure(context.getStartupFailure())).isNotNull()
				.hasMessageContaining("Property: crid.registry.etcd.username + crid.registry.etcd.password\n"
						+ "    Value: \"orders\"\n"
						+ "    Reason: must be set together: the username is set and the password is not"));
	}

	@Test
	void aPasswordWithoutUsernameIsRefusedWithoutShowingIt() {
		this.runner.withPropertyValues(ENDPOINTS, "crid.registry.etcd.password=" + SECRET).run((context) -> {
			CridConfigurationException failure = StartupFailures.cridFailure(context.getStartupFailure());
			assertThat(failure).isNotNull();
			assertThat(failure.getMessage()).contains("    Value: \"******\"\n"
					+ "    Reason: must be set together: the password is set and the username is not");
			assertThat(StartupFailures.analyze(context).getDescription()).doesNotContain(SECRET);
			assertThat(failure.action()).doesNotContain(SECRET);
		});
	}

	@Test
	void theRegistryIsLoggedWithoutThePassword(CapturedOutput output) {
		this.runner
			.withPropertyValues(ENDPOINTS, "crid.registry.etcd.username=orders",
					"crid.registry.etcd.password=" + SECRET)
			.run((context) -> assertThat(context).hasNotFailed());
		assertThat(output)
			.contains("crid uses the etcd registry at http://127.0.0.1:1,http://127.0.0.1:2, keys "
					+ "under 'crid/', as user 'orders'")
			.doesNotContain(SECRET);
	}

	@Test
	void aNamedNodeThatSetsOtherEndpointsOrCredentialsIsRefused() {
		this.runner.withConfiguration(AutoConfigurations.of(CridAutoConfiguration.class))
			.withPropertyValues(ENDPOINTS, "crid.registry.etcd.username=orders",
					"crid.registry.etcd.password=" + SECRET, "crid.nodes.reports.registry.etcd.endpoints=http://x:1",
					"crid.nodes.reports.registry.etcd.password=other-" + SECRET)
			.run((context) -> {
				CridConfigurationException failure = StartupFailures.cridFailure(context.getStartupFailure());
				assertThat(failure).isNotNull();
				assertThat(failure.getMessage())
					.contains("Property: crid.nodes.reports.registry.etcd.endpoints\n    Value: \"http://x:1\"\n"
							+ "    Reason: must be left unset: every node reserves through the default node's etcd client")
					.contains("Property: crid.nodes.reports.registry.etcd.username + "
							+ "crid.nodes.reports.registry.etcd.password\n    Value: \"******\"\n")
					.doesNotContain(SECRET);
			});
	}

	@Test
	void thePasswordIsMaskedInConfigpropsAndEnvEvenWhereTheyShowValues() {
		this.runner
			.withConfiguration(AutoConfigurations.of(EndpointAutoConfiguration.class,
					ConfigurationPropertiesReportEndpointAutoConfiguration.class,
					EnvironmentEndpointAutoConfiguration.class))
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.addLast(new SystemEnvironmentPropertySource("systemEnvironment",
						Map.of("CRID_NODES_REPORTS_REGISTRY_ETCD_PASSWORD", SECRET))))
			.withPropertyValues("crid.registry.type=memory", "crid.registry.etcd.username=orders",
					"crid.registry.etcd.password=" + SECRET,
					"management.endpoints.web.exposure.include=env,configprops",
					"management.endpoint.configprops.show-values=always", "management.endpoint.env.show-values=always")
			.run((context) -> {
				Map<String, Object> properties = context.getBean(ConfigurationPropertiesReportEndpoint.class)
					.configurationPropertiesWithPrefix("crid")
					.getContexts()
					.values()
					.iterator()
					.next()
					.getBeans()
					.values()
					.iterator()
					.next()
					.getProperties();
				assertThat(properties.toString()).contains("username=orders", "password=******").doesNotContain(SECRET);
				EnvironmentEndpoint env = context.getBean(EnvironmentEndpoint.class);
				assertThat(env.environmentEntry("crid.registry.etcd.username").getProperty().getValue())
					.isEqualTo("orders");
				assertThat(env.environmentEntry("crid.registry.etcd.password").getProperty().getValue())
					.isEqualTo("******");
				assertThat(env.environmentEntry("CRID_NODES_REPORTS_REGISTRY_ETCD_PASSWORD").getProperty().getValue())
					.isEqualTo("******");
				assertThat(env.environmentEntry("crid.nodes.reports.registry.etcd.password").getProperty().getValue())
					.isEqualTo("******");
			});
	}

	/**
	 * Without crid's sanitizing function (replaced here by one that hides nothing),
	 * Spring Boot still shows no value by default.
	 */
	@Test
	void envShowsNoValueByDefault() {
		this.runner
			.withConfiguration(AutoConfigurations.of(EndpointAutoConfiguration.class,
					ConfigurationPropertiesReportEndpointAutoConfiguration.class,
					EnvironmentEndpointAutoConfiguration.class))
			.withBean("cridSanitizingFunction", SanitizingFunction.class, () -> (data) -> data)
			.withPropertyValues("crid.registry.type=memory", "crid.registry.etcd.password=" + SECRET,
					"management.endpoints.web.exposure.include=env")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(EnvironmentEndpoint.class)
					.environmentEntry("crid.registry.etcd.password")
					.getProperty()
					.getValue()).isEqualTo("******");
			});
	}

}
