package dev.crid.jdbc;

import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The schema scripts on the classpath: one per dialect, each creating the Go crid's table.
 */
class SchemaScriptTest {

	@ParameterizedTest
	@EnumSource(JdbcDialect.class)
	void eachDialectHasAScriptForTheGoCridTable(JdbcDialect dialect) {
		String location = SqlDialect.of(dialect).schemaScript();
		assertThat(location).isEqualTo("dev/crid/jdbc/schema-" + dialect.name().toLowerCase() + ".sql");
		List<String> statements = SchemaScript.statements(location, "crid_allocations");
		assertThat(statements).singleElement()
			.asString()
			.startsWith("CREATE TABLE")
			.contains(" crid_allocations (")
			.containsPattern("ts BIGINT (NOT NULL )?PRIMARY KEY")
			.contains("next_seq BIGINT NOT NULL")
			.doesNotContain("--")
			.doesNotEndWith(";");
	}

	@ParameterizedTest
	@EnumSource(JdbcDialect.class)
	void substitutesTheConfiguredTableName(JdbcDialect dialect) {
		List<String> statements = SchemaScript.statements(SqlDialect.of(dialect).schemaScript(), "ids.my_table");
		assertThat(statements).singleElement().asString().contains(" ids.my_table (").doesNotContain("crid_allocations");
	}

}
