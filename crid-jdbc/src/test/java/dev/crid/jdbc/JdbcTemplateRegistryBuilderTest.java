package dev.crid.jdbc;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

import dev.crid.InvalidConfigException.Violation;
import dev.crid.InvalidConfigException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * What {@link JdbcTemplateRegistry.Builder} accepts and rejects. Nothing here touches a
 * database: the data source points at one that is never opened.
 */
class JdbcTemplateRegistryBuilderTest {

	private final JdbcTemplate jdbcTemplate = new JdbcTemplate(new DriverManagerDataSource("jdbc:h2:mem:never-opened"));

	@ParameterizedTest
	@ValueSource(strings = { "crid_allocations", "ids.crid_allocations", "_t", "T1", "Schema_1.Table_2", "a" })
	void acceptsPlainAndSchemaQualifiedNames(String tableName) {
		JdbcTemplateRegistry registry = JdbcTemplateRegistry.builder(this.jdbcTemplate).tableName(tableName).build();
		assertThat(registry.tableName()).isEqualTo(tableName);
	}

	@ParameterizedTest
	@ValueSource(strings = { "", " ", "\t", "a.b.c", "catalog.schema.table", "crid; DROP TABLE users", "t--", "t/*x*/",
			"t'", "\"quoted\"", "`t`", "1table", "a-b", "a b", "a.", ".a", "a..b", "t\n", "tëst",
			"crid_allocations WHERE 1=1" })
	void rejectsNamesThatAreNotIdentifiers(String tableName) {
		assertThatExceptionOfType(InvalidConfigException.class)
			.isThrownBy(() -> JdbcTemplateRegistry.builder(this.jdbcTemplate).tableName(tableName).build())
			.satisfies((ex) -> assertThat(ex.violations()).extracting(Violation::message)
				.singleElement()
				.asString()
				.contains("tableName is \"" + tableName + "\"")
				.contains("schema.name")
				.contains("[A-Za-z_][A-Za-z0-9_]*"));
	}

	@ParameterizedTest
	@NullSource
	void rejectsANullName(String tableName) {
		assertThatExceptionOfType(InvalidConfigException.class)
			.isThrownBy(() -> JdbcTemplateRegistry.builder(this.jdbcTemplate).tableName(tableName).build())
			.withMessageContaining("tableName is null");
	}

	@Test
	void rejectsQueryTimeoutsOutOfRange() {
		for (Duration timeout : new Duration[] { Duration.ZERO, Duration.ofMillis(-1), Duration.ofDays(2), null }) {
			assertThatExceptionOfType(InvalidConfigException.class)
				.isThrownBy(() -> JdbcTemplateRegistry.builder(this.jdbcTemplate).queryTimeout(timeout).build())
				.withMessageContaining("queryTimeout is " + timeout);
		}
	}

	@Test
	void reportsEveryViolationAtOnce() {
		assertThatExceptionOfType(InvalidConfigException.class)
			.isThrownBy(() -> JdbcTemplateRegistry.builder(new JdbcTemplate())
				.tableName("x;y")
				.queryTimeout(Duration.ZERO)
				.build())
			.satisfies((ex) -> assertThat(ex.violations()).extracting(Violation::message).hasSize(3))
			.withMessageContaining("DataSource")
			.withMessageContaining("tableName")
			.withMessageContaining("queryTimeout");
	}

	@Test
	void theConstructorValidatesToo() {
		assertThatExceptionOfType(InvalidConfigException.class)
			.isThrownBy(() -> new JdbcTemplateRegistry(new JdbcTemplate()))
			.withMessageContaining("but must have a DataSource");
	}

	@Test
	void defaultsToTheGoCridTable() {
		JdbcTemplateRegistry registry = new JdbcTemplateRegistry(this.jdbcTemplate);
		assertThat(registry.tableName()).isEqualTo("crid_allocations")
			.isEqualTo(JdbcTemplateRegistry.DEFAULT_TABLE_NAME);
		assertThat(JdbcTemplateRegistry.DEFAULT_QUERY_TIMEOUT).isEqualTo(Duration.ofSeconds(5));
		assertThat(registry).hasToString("JdbcTemplateRegistry[table=crid_allocations, dialect=not yet detected]");
	}

	@Test
	void aConfiguredDialectNeedsNoDatabase() {
		JdbcTemplateRegistry registry = JdbcTemplateRegistry.builder(this.jdbcTemplate)
			.dialect(JdbcDialect.MYSQL)
			.build();
		assertThat(registry.dialect()).isEqualTo(JdbcDialect.MYSQL);
		assertThat(registry.schemaScript()).isEqualTo("dev/crid/jdbc/schema-mysql.sql");
	}

}
