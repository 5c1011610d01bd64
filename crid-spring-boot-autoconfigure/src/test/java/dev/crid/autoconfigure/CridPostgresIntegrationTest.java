package dev.crid.autoconfigure;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import dev.crid.autoconfigure.registry.CridRegistryAutoConfiguration;
import dev.crid.CridNode;
import dev.crid.CridParser;
import dev.crid.Registry;
import dev.crid.jdbc.JdbcDialect;
import dev.crid.jdbc.JdbcTemplateRegistry;
import dev.crid.testsupport.TestDatabase;
import dev.crid.actuate.endpoint.CridEndpoint;
import dev.crid.autoconfigure.endpoint.CridEndpointAutoConfiguration;
import dev.crid.autoconfigure.health.CridHealthContributorAutoConfiguration;
import dev.crid.actuate.health.CridHealthIndicator;
import dev.crid.micrometer.CridMeterBinder;
import dev.crid.autoconfigure.metrics.CridMetricsAutoConfiguration;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The auto-configuration on a real PostgreSQL: the database registry, schema
 * initialisation, health UP and DOWN, meters and the endpoint. Every test uses its own
 * table, dropped at the end, so that tests of other modules running against the same
 * database at the same time are not disturbed.
 */
@ExtendWith(OutputCaptureExtension.class)
class CridPostgresIntegrationTest {

	private static final String PREFIX = "crid_boot_it_" + Long.toHexString(System.nanoTime() & 0xffffff) + "_";

	private static final AtomicInteger tableNumbers = new AtomicInteger();

	private static final List<String> tables = new ArrayList<>();

	private static HikariDataSource admin;

	private static TestDatabase.Endpoint database;

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, CridRegistryAutoConfiguration.class,
				CridAutoConfiguration.class, CridHealthContributorAutoConfiguration.class,
				CridMetricsAutoConfiguration.class, CridEndpointAutoConfiguration.class))
		.withPropertyValues("management.endpoints.web.exposure.include=crid",
				"spring.datasource.hikari.maximum-pool-size=4");

	@BeforeAll
	static void connect() {
		database = TestDatabase.POSTGRESQL.endpoint();
		admin = TestDatabase.POSTGRESQL.dataSource(1);
	}

	@AfterAll
	static void dropTables() {
		if (admin != null) {
			tables.forEach((table) -> TestDatabase.dropRegistryTables(admin, table));
			admin.close();
		}
	}

	@Test
	void createsTheTableAndServesDistinctIdsFromManyThreads() throws Exception {
		String table = newTable();
		database()
			.withPropertyValues("crid.registry.jdbc.initialize-schema=always", "crid.registry.jdbc.table-name=" + table,
					"crid.block-size=1000", "crid.threshold=500")
			.run((context) -> {
				JdbcTemplateRegistry registry = context.getBean(JdbcTemplateRegistry.class);
				assertThat(registry.dialect()).isEqualTo(JdbcDialect.POSTGRESQL);
				assertThat(registry.tableName()).isEqualTo(table);
				CridNode node = context.getBean(CridNode.class);
				Set<Long> ids = takeIds(node, 4, 5_000);
				assertThat(ids).hasSize(20_000);
				CridParser parser = context.getBean(CridParser.class);
				assertThat(parser.parse(ids.iterator().next()).timestamp()).isBetween(Instant.now().minusSeconds(30),
						Instant.now());
				Long reserved = new JdbcTemplate(admin).queryForObject("SELECT SUM(next_seq) FROM " + table,
						Long.class);
				assertThat(reserved).isGreaterThanOrEqualTo(20_000);
			});
	}

	@Test
	void twoApplicationsSharingTheTableNeverHandOutTheSameId() {
		String table = newTable();
		ApplicationContextRunner app = database().withPropertyValues("crid.registry.jdbc.initialize-schema=always",
				"crid.registry.jdbc.table-name=" + table, "crid.block-size=100", "crid.threshold=50");
		app.run((first) -> app.run((second) -> {
			Set<Long> ids = ConcurrentHashMap.newKeySet();
			CridNode a = first.getBean(CridNode.class);
			CridNode b = second.getBean(CridNode.class);
			assertThat(a).isNotSameAs(b);
			for (int i = 0; i < 3_000; i++) {
				assertThat(ids.add(a.nextId())).isTrue();
				assertThat(ids.add(b.nextId())).isTrue();
			}
		}));
	}

	@Test
	void failsAtStartUpWithTheScriptWhenTheTableIsMissingOnAServerDatabase() {
		String table = newTable();
		database().withPropertyValues("crid.registry.jdbc.table-name=" + table).run((context) -> {
			FailureAnalysis analysis = StartupFailures.analyze(context);
			assertThat(analysis.getDescription())
				.contains("Property: crid.registry.jdbc.initialize-schema\n    Value: \"embedded\"\n")
				.contains("left the table '" + table + "' uncreated (and POSTGRESQL is not an embedded database)")
				.contains("dev/crid/jdbc/schema-postgresql.sql")
				.contains("CREATE TABLE IF NOT EXISTS " + table);
			assertThat(analysis.getAction()).contains("crid.registry.jdbc.initialize-schema=always");
		});
		assertThat(new JdbcTemplate(admin).queryForObject("SELECT to_regclass(?) IS NULL", Boolean.class, table))
			.isTrue();
	}

	@Test
	void printsTheFailureAnalysisWhenTheApplicationFailsToStart(CapturedOutput output) {
		String table = newTable();
		SpringApplicationBuilder application = new SpringApplicationBuilder(DatabaseApplication.class)
			.web(WebApplicationType.NONE)
			.properties(datasourceProperties())
			.properties("crid.registry.jdbc.initialize-schema=never", "crid.registry.jdbc.table-name=" + table);
		assertThatThrownBy(application::run).hasStackTraceContaining(CridConfigurationException.class.getName());
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("left the table '" + table + "' uncreated, and it does not exist")
			.contains("CREATE TABLE IF NOT EXISTS " + table);
	}

	@Test
	void neverStartsWhenTheTableExists() {
		String table = newTable();
		JdbcTemplateRegistry.builder(new JdbcTemplate(admin)).tableName(table).build().ensureSchema();
		database()
			.withPropertyValues("crid.registry.jdbc.initialize-schema=never", "crid.registry.jdbc.table-name=" + table)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(CridNode.class).nextId()).isPositive();
			});
	}

	@Test
	void healthIsUpWithRegistryDetailsAndDownOnceTheTableIsGone() {
		String table = newTable();
		database()
			.withPropertyValues("crid.registry.jdbc.initialize-schema=always", "crid.registry.jdbc.table-name=" + table)
			.run((context) -> {
				CridNode node = context.getBean(CridNode.class);
				node.nextId();
				CridHealthIndicator indicator = context.getBean(CridHealthIndicator.class);
				Health up = indicator.health();
				assertThat(up.getStatus()).isEqualTo(Status.UP);
				assertThat(up.getDetails())
					.containsEntry("registry", Map.of("kind", "jdbc", "table", table, "dialect", "postgresql"))
					.containsEntry("idsLeftInBlock", CridNode.DEFAULT_BLOCK_SIZE - 1)
					.containsKeys("layout", "lastAllocationTime");
				long reservations = node.stats().synchronousAllocations().count()
						+ node.stats().prefetchAllocations().count();
				new JdbcTemplate(admin).execute("DROP TABLE " + table);
				// A finished check's answer is reused for a second.
				await().atMost(Duration.ofSeconds(5)).until(() -> indicator.health().getStatus() == Status.DOWN);
				Health down = indicator.health();
				assertThat(down.getDetails().get("error").toString()).contains(table);
				assertThat(down.getDetails().get("registry"))
					.isEqualTo(Map.of("kind", "jdbc", "table", table, "dialect", "postgresql"));
				assertThat(node.stats().synchronousAllocations().count() + node.stats().prefetchAllocations().count())
					.as("the health check never reserves")
					.isEqualTo(reservations);
			});
	}

	@Test
	void healthIsDownWhenTheDatabaseCannotBeReached(CapturedOutput output) {
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(DataSourceAutoConfiguration.class, CridRegistryAutoConfiguration.class,
							CridAutoConfiguration.class, CridHealthContributorAutoConfiguration.class))
			.withPropertyValues("spring.datasource.url=jdbc:postgresql://127.0.0.1:1/test",
					"spring.datasource.username=postgres", "spring.datasource.hikari.connection-timeout=250",
					"spring.datasource.hikari.initialization-fail-timeout=-1",
					"crid.registry.jdbc.initialize-schema=never", "crid.registry.type=jdbc")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				Health health = context.getBean(CridHealthIndicator.class).health();
				assertThat(health.getStatus()).isEqualTo(Status.DOWN);
				assertThat(health.getDetails()).containsKey("error");
				assertThat(health.getDetails().get("registry"))
					.as("no dialect: it is not known, and the details never connect to learn it")
					.isEqualTo(Map.of("kind", "jdbc", "table", "crid_allocations"));
				assertThat(health.getDetails().get("error").toString()).contains("RegistryException");
			});
		assertThat(output).contains("Could not check the crid registry table");
	}

	@Test
	void metersMoveAfterNextId() {
		String table = newTable();
		database().withBean(SimpleMeterRegistry.class)
			.withPropertyValues("crid.registry.jdbc.initialize-schema=always", "crid.registry.jdbc.table-name=" + table)
			.run((context) -> {
				MeterRegistry meters = context.getBean(MeterRegistry.class);
				context.getBean(CridMeterBinder.class).bindTo(meters);
				FunctionTimer prefetch = meters.get("crid.allocations").tag("mode", "prefetch").functionTimer();
				assertThat(prefetch.count()).as("the first block, reserved at start-up").isOne();
				assertThat(prefetch.totalTime(TimeUnit.MICROSECONDS)).isPositive();
				CridNode node = context.getBean(CridNode.class);
				for (int i = 0; i < 10; i++) {
					node.nextId();
				}
				assertThat(meters.get("crid.allocations").tag("mode", "synchronous").functionTimer().count()).isZero();
				assertThat(meters.get("crid.stalls").functionCounter().count()).isZero();
				assertThat(meters.get("crid.clock.skew").gauge().value()).as("PostgreSQL runs on this machine's clock")
					.isBetween(-0.5, 0.5);
				assertThat(meters.get("crid.ids.issued").functionCounter().count()).isEqualTo(10);
				assertThat(meters.get("crid.ids.left").gauge().value()).isEqualTo(CridNode.DEFAULT_BLOCK_SIZE - 10);
			});
	}

	@Test
	void endpointShowsTheDatabaseRegistry() {
		String table = newTable();
		database()
			.withPropertyValues("crid.registry.jdbc.initialize-schema=always", "crid.registry.jdbc.table-name=" + table)
			.run((context) -> {
				CridEndpoint.NodeDescriptor descriptor = context.getBean(CridEndpoint.class)
					.crid()
					.nodes()
					.get("default");
				assertThat(descriptor.registry()).containsEntry("kind", "jdbc")
					.containsEntry("table", table)
					.containsEntry("dialect", "postgresql");
				assertThat(context.getBean(Registry.class)).isInstanceOf(JdbcTemplateRegistry.class);
				assertThat(context.getBean(DataSource.class)).isInstanceOf(HikariDataSource.class);
			});
	}

	private ApplicationContextRunner database() {
		return this.runner.withPropertyValues(datasourceProperties());
	}

	private static String[] datasourceProperties() {
		return new String[] { "spring.datasource.url=" + database.url(),
				"spring.datasource.username=" + database.username(),
				"spring.datasource.password=" + database.password() };
	}

	private static synchronized String newTable() {
		String table = PREFIX + tableNumbers.incrementAndGet();
		tables.add(table);
		return table;
	}

	private static Set<Long> takeIds(CridNode node, int threads, int perThread) throws Exception {
		Set<Long> ids = ConcurrentHashMap.newKeySet();
		AtomicInteger duplicates = new AtomicInteger();
		ExecutorService executor = Executors.newFixedThreadPool(threads);
		try {
			List<Future<?>> futures = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				futures.add(executor.submit(() -> {
					for (int i = 0; i < perThread; i++) {
						if (!ids.add(node.nextId())) {
							duplicates.incrementAndGet();
						}
					}
				}));
			}
			for (Future<?> future : futures) {
				future.get(Duration.ofSeconds(60).toMillis(), TimeUnit.MILLISECONDS);
			}
		}
		finally {
			executor.shutdownNow();
		}
		assertThat(duplicates).hasValue(0);
		return ids;
	}

	@Configuration(proxyBeanMethods = false)
	@Import({ DataSourceAutoConfiguration.class, CridRegistryAutoConfiguration.class, CridAutoConfiguration.class })
	static class DatabaseApplication {

	}

}
