package dev.crid.autoconfigure;

import javax.sql.DataSource;

import dev.crid.autoconfigure.registry.CridRegistryAutoConfiguration;
import dev.crid.CridNode;
import dev.crid.jdbc.JdbcDialect;
import dev.crid.jdbc.JdbcTemplateRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseBuilder;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseType;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code crid.registry.jdbc.dialect}: detected by default, forced by name, refused when
 * unknown; and what {@code crid.registry.jdbc.initialize-schema=never} means beside a
 * table the Go crid made.
 */
class CridJdbcDialectPropertyTest {

	private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(AutoConfigurations
		.of(CridRegistryAutoConfiguration.class, CridAutoConfiguration.class, DataSourceAutoConfiguration.class));

	@Test
	void detectsTheDialectByDefault() {
		this.runner.run((context) -> assertThat(context.getBean(JdbcTemplateRegistry.class).dialect())
			.isEqualTo(JdbcDialect.H2));
	}

	@Test
	void forcesTheDialectNamedInAnyCase() {
		this.runner.withPropertyValues("crid.registry.jdbc.dialect=Generic")
			.run((context) -> assertThat(context.getBean(JdbcTemplateRegistry.class).dialect())
				.isEqualTo(JdbcDialect.GENERIC));
	}

	@Test
	void anUnknownDialectFailsStartUpNamingThePropertyAndTheKnownOnes() {
		this.runner.withPropertyValues("crid.registry.jdbc.dialect=oracle").run((context) -> {
			FailureAnalysis analysis = StartupFailures.analyze(context);
			assertThat(analysis.getDescription()).contains("Property: crid.registry.jdbc.dialect")
				.contains("Value: \"oracle\"");
			assertThat(analysis.getDescription()).contains("postgresql, mariadb, mysql, h2, generic");
			assertThat(analysis.getAction()).contains("auto");
		});
	}

	@Test
	void withInitializeSchemaNeverTheRegistryLeavesATableTheGoCridMadeAsItIs() {
		this.runner.withUserConfiguration(GoMadeTable.class)
			.withPropertyValues("crid.registry.jdbc.initialize-schema=never")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				context.getBean(CridNode.class).nextId();
				JdbcTemplate jdbcTemplate = new JdbcTemplate(context.getBean(DataSource.class));
				assertThat(jdbcTemplate.queryForObject("SELECT COUNT(*) FROM information_schema.tables "
						+ "WHERE LOWER(table_name) = 'crid_allocations_meta'", Long.class))
					.as("metadata tables")
					.isZero();
				assertThat(jdbcTemplate.queryForList("SELECT next_seq FROM crid_allocations ORDER BY ts", Long.class))
					.as("Go's row, and the node's beside it")
					.hasSize(2)
					.startsWith(GoMadeTable.GO_NEXT_SEQUENCE);
			});
	}

	/**
	 * An embedded database holding only the table the Go crid creates, with a row of
	 * Go's.
	 */
	@Configuration(proxyBeanMethods = false)
	static class GoMadeTable {

		static final long GO_NEXT_SEQUENCE = 5_000;

		@Bean
		DataSource dataSource() {
			DataSource dataSource = new EmbeddedDatabaseBuilder().setType(EmbeddedDatabaseType.H2)
				.generateUniqueName(true)
				.build();
			JdbcTemplate jdbcTemplate = new JdbcTemplate(dataSource);
			jdbcTemplate.execute("CREATE TABLE crid_allocations (ts BIGINT PRIMARY KEY, next_seq BIGINT NOT NULL)");
			jdbcTemplate.update("INSERT INTO crid_allocations (ts, next_seq) VALUES (1, ?)", GO_NEXT_SEQUENCE);
			return dataSource;
		}

	}

}
