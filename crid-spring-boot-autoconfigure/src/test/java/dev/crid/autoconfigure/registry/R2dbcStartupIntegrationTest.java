package dev.crid.autoconfigure.registry;

import java.util.concurrent.ThreadLocalRandom;

import com.zaxxer.hikari.HikariDataSource;
import dev.crid.CridNode;
import dev.crid.CridStats;
import dev.crid.autoconfigure.CridAutoConfiguration;
import dev.crid.r2dbc.R2dbcRegistry;
import dev.crid.testsupport.TestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.r2dbc.autoconfigure.R2dbcAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An R2DBC application started on a database that has none of crid's tables, with
 * {@code crid.registry.r2dbc.initialize-schema} set to create them: the tables are
 * created before the node reserves its first block, so start-up logs no warning, the
 * node's first reservation did not fail, and its first {@code nextId()} finds an ID in
 * memory instead of waiting for the registry.
 */
@ExtendWith(OutputCaptureExtension.class)
class R2dbcStartupIntegrationTest {

	/**
	 * The application, with a service of its own that takes the node: an application's
	 * beans are defined before the auto-configured ones, so the service asks for the node
	 * before the registry's initializer would otherwise have been created.
	 */
	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(R2dbcAutoConfiguration.class, CridRegistryAutoConfiguration.class,
				CridAutoConfiguration.class))
		.withUserConfiguration(Application.class);

	@Test
	void aFreshPostgreSqlSchemaStartsWithTheTablesReadyForTheFirstReservation(CapturedOutput output) {
		TestDatabase.Endpoint database = TestDatabase.POSTGRESQL.endpoint();
		String schema = "crid_r2dbc_startup_" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 16);
		try (HikariDataSource admin = TestDatabase.POSTGRESQL.dataSource(1)) {
			JdbcTemplate jdbc = new JdbcTemplate(admin);
			jdbc.execute("CREATE SCHEMA " + schema);
			try {
				String url = "r2dbc:" + database.url().substring("jdbc:".length()).replaceFirst("\\?.*", "")
						+ "?schema=" + schema;
				this.runner
					.withPropertyValues("spring.r2dbc.url=" + url, "spring.r2dbc.username=" + database.username(),
							"spring.r2dbc.password=" + database.password(),
							"crid.registry.r2dbc.initialize-schema=always")
					.run((context) -> assertStartedWithTheTablesReady(context, output));
				assertThat(jdbc.queryForObject(
						"SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = ? AND table_name = ?",
						Integer.class, schema, R2dbcRegistry.DEFAULT_TABLE_NAME))
					.as("the registry table, in the application's schema")
					.isOne();
			}
			finally {
				jdbc.execute("DROP SCHEMA " + schema + " CASCADE");
			}
		}
	}

	@Test
	void aFreshEmbeddedDatabaseStartsWithTheTablesReadyForTheFirstReservation(CapturedOutput output) {
		this.runner
			.withPropertyValues("spring.r2dbc.url=r2dbc:h2:mem:///crid-r2dbc-startup-"
					+ ThreadLocalRandom.current().nextInt(1_000_000) + "?options=DB_CLOSE_DELAY=-1")
			.run((context) -> assertStartedWithTheTablesReady(context, output));
	}

	@Configuration(proxyBeanMethods = false)
	static class Application {

		@Bean
		EventIds eventIds(CridNode node) {
			return new EventIds(node);
		}

	}

	/** A service of the application that hands out IDs. */
	record EventIds(CridNode node) {
	}

	private static void assertStartedWithTheTablesReady(AssertableApplicationContext context, CapturedOutput output) {
		assertThat(context).hasNotFailed().hasSingleBean(R2dbcRegistry.class);
		CridNode node = context.getBean(CridNode.class);
		CridStats started = node.stats();
		assertThat(started.lastFailure()).as("the node's registry calls at start-up failed").isNull();
		assertThat(started.prefetchAllocations().failures() + started.synchronousAllocations().failures()).isZero();
		assertThat(started.lastAllocationTime()).as("the first block, reserved at start-up").isNotNull();
		assertThat(node.nextId()).isPositive();
		assertThat(node.stats().stalls()).as("calls to nextId() that waited for the registry").isZero();
		assertThat(output).doesNotContain("could not reserve the first block")
			.doesNotContain("Could not check the crid registry table");
	}

}
