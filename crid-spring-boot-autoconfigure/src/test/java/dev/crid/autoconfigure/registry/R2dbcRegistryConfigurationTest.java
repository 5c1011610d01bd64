package dev.crid.autoconfigure.registry;

import java.util.concurrent.ThreadLocalRandom;

import javax.sql.DataSource;

import org.h2.jdbcx.JdbcDataSource;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.r2dbc.autoconfigure.DataR2dbcAutoConfiguration;
import org.springframework.boot.r2dbc.autoconfigure.R2dbcAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.r2dbc.core.R2dbcEntityTemplate;
import org.springframework.r2dbc.core.DatabaseClient;

import dev.crid.CridNode;
import dev.crid.InMemoryRegistry;
import dev.crid.Registry;
import dev.crid.autoconfigure.CridAutoConfiguration;
import dev.crid.autoconfigure.StartupFailures;
import dev.crid.autoconfigure.data.CridDataR2dbcAutoConfiguration;
import dev.crid.data.CridR2dbcCallback;
import dev.crid.r2dbc.R2dbcRegistry;
import dev.crid.jdbc.JdbcTemplateRegistry;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The registry on R2DBC, where the choice of a registry takes it, and the Spring Data
 * R2DBC callback.
 */
class R2dbcRegistryConfigurationTest {

	private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(AutoConfigurations
		.of(R2dbcAutoConfiguration.class, CridRegistryAutoConfiguration.class, CridAutoConfiguration.class));

	/**
	 * A DataSource of the application's own: Spring Boot configures none beside a
	 * ConnectionFactory.
	 */
	private static DataSource h2DataSource(String name) {
		JdbcDataSource dataSource = new JdbcDataSource();
		dataSource.setURL("jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1");
		return dataSource;
	}

	private static String h2Url() {
		return "spring.r2dbc.url=r2dbc:h2:mem:///crid-r2dbc-auto-" + ThreadLocalRandom.current().nextInt(1_000_000)
				+ "?options=DB_CLOSE_DELAY=-1";
	}

	@Test
	void autoWithAConnectionFactoryAndNoDataSourceUsesTheR2dbcRegistryAndCreatesItsTablesOnH2() {
		this.runner.withPropertyValues(h2Url()).run((context) -> {
			assertThat(context).hasNotFailed().hasSingleBean(R2dbcRegistry.class);
			assertThat(context.getBean(CridNode.class).nextId()).isPositive();
			assertThat(context.getBean(DatabaseClient.class)
				.sql("SELECT COUNT(*) FROM crid_allocations")
				.map((row) -> row.get(0, Long.class))
				.one()
				.block()).isPositive();
		});
	}

	@Test
	void autoWithoutCridJdbcAndSpringJdbcUsesTheR2dbcRegistry() {
		// The classes are hidden from the conditions (Spring Boot's own JDBC module
		// stays:
		// its spring.factories cannot be hidden); MinimalClasspathTest shows that the
		// auto-configuration's classes load without them, and
		// crid-spring-boot-starter-r2dbc
		// an application without crid-jdbc.
		this.runner.withClassLoader(new FilteredClassLoader("dev.crid.jdbc.", "org.springframework.jdbc."))
			.withPropertyValues(h2Url())
			.run((context) -> {
				assertThat(context).hasNotFailed().hasSingleBean(R2dbcRegistry.class);
				assertThat(context.getBean(CridNode.class).nextId()).isPositive();
			});
	}

	@Test
	void autoWithADataSourceTooUsesTheJdbcRegistry() {
		this.runner.withBean(DataSource.class, () -> h2DataSource("crid-r2dbc-auto-jdbc"))
			.withPropertyValues(h2Url())
			.run((context) -> assertThat(context).hasNotFailed()
				.getBean(Registry.class)
				.isInstanceOf(JdbcTemplateRegistry.class));
	}

	@Test
	void r2dbcUsesTheConnectionFactory() {
		this.runner.withPropertyValues(h2Url(), "crid.registry.type=r2dbc")
			.run((context) -> assertThat(context).hasNotFailed()
				.getBean(Registry.class)
				.isInstanceOf(R2dbcRegistry.class));
	}

	@Test
	void r2dbcWinsOverADataSourceWhenAskedFor() {
		this.runner.withBean(DataSource.class, () -> h2DataSource("crid-r2dbc-asked-jdbc"))
			.withPropertyValues(h2Url(), "crid.registry.type=r2dbc")
			.run((context) -> assertThat(context).hasNotFailed()
				.getBean(Registry.class)
				.isInstanceOf(R2dbcRegistry.class));
	}

	@Test
	void r2dbcWithoutAConnectionFactoryStopsStartUpSayingSo() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(CridRegistryAutoConfiguration.class, CridAutoConfiguration.class))
			.withPropertyValues("crid.registry.type=r2dbc")
			.run((context) -> assertThat(StartupFailures.cridFailure(context.getStartupFailure())).isNotNull()
				.hasMessageContaining("Property: crid.registry.type\n    Value: \"r2dbc\"\n")
				.hasMessageContaining("needs what the application lacks: an R2DBC ConnectionFactory bean"));
	}

	@Test
	void memoryIgnoresTheConnectionFactory() {
		this.runner.withPropertyValues(h2Url(), "crid.registry.type=memory")
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(InMemoryRegistry.class)
				.doesNotHaveBean(R2dbcRegistry.class));
	}

	@Test
	void backsOffWhenTheUserDefinesARegistry() {
		this.runner.withPropertyValues(h2Url())
			.withBean("myRegistry", Registry.class, InMemoryRegistry::new)
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(R2dbcRegistry.class)
				.getBeans(Registry.class)
				.containsOnlyKeys("myRegistry"));
	}

	@Test
	void aMissingTableThatCridMustNotCreateStopsStartUpWithTheStatementsThatCreateIt() {
		this.runner.withPropertyValues(h2Url(), "crid.registry.r2dbc.initialize-schema=never")
			.run((context) -> assertThat(StartupFailures.cridFailure(context.getStartupFailure())).isNotNull()
				.hasMessageContaining("'crid_allocations' or 'crid_allocations_meta' does not exist")
				.hasMessageContaining("Property: crid.registry.r2dbc.initialize-schema\n    Value: \"never\"\n")
				.hasMessageContaining("CREATE TABLE IF NOT EXISTS crid_allocations ( ts BIGINT PRIMARY KEY"));
	}

	@Test
	void aBadTableNameStopsStartUpNamingTheProperty() {
		this.runner.withPropertyValues(h2Url(), "crid.registry.r2dbc.table-name=ids; DROP TABLE x")
			.run((context) -> assertThat(StartupFailures.cridFailure(context.getStartupFailure())).isNotNull()
				.hasMessageContaining("Property: crid.registry.r2dbc.table-name\n    Value: \"ids; DROP TABLE x\"\n"));
	}

	@Test
	void springDataR2dbcAggregatesWithCridGetTheNodesIds() {
		this.runner
			.withConfiguration(
					AutoConfigurations.of(DataR2dbcAutoConfiguration.class, CridDataR2dbcAutoConfiguration.class))
			.withPropertyValues(h2Url())
			.run((context) -> {
				assertThat(context).hasNotFailed().hasSingleBean(CridR2dbcCallback.class);
				R2dbcEntityTemplate template = context.getBean(R2dbcEntityTemplate.class);
				template.getDatabaseClient()
					.sql("CREATE TABLE crid_r2dbc_shelf (id BIGINT PRIMARY KEY, aisle VARCHAR(20))")
					.then()
					.block();
				R2dbcShelf saved = template.insert(new R2dbcShelf(null, "9")).block();
				assertThat(saved.id()).isPositive();
			});
	}

}
