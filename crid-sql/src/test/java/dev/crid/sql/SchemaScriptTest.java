package dev.crid.sql;

import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The schema scripts on the classpath: one per dialect, each creating the Go crid's table
 * and the metadata table beside it, read into statements for any table name.
 */
class SchemaScriptTest {

	@ParameterizedTest
	@EnumSource(SqlDialect.class)
	void eachDialectHasAScriptForTheGoCridTableAndTheMetadataBesideIt(SqlDialect dialect) {
		String location = dialect.schemaScript();
		assertThat(location).isEqualTo("dev/crid/jdbc/schema-" + dialect.name().toLowerCase() + ".sql");
		List<String> statements = dialect.schemaStatements(new RegistryTables(RegistryTables.DEFAULT_NAME));
		assertThat(statements).hasSize(2)
			.allSatisfy((statement) -> assertThat(statement).startsWith("CREATE TABLE")
				.doesNotContain("--")
				.doesNotEndWith(";"));
		assertThat(statements.get(0)).contains(" crid_allocations (")
			.containsPattern("ts BIGINT (NOT NULL )?PRIMARY KEY")
			.contains("next_seq BIGINT NOT NULL");
		assertThat(statements.get(1)).contains(" crid_allocations_meta (")
			.containsPattern("id INT (NOT NULL )?PRIMARY KEY")
			.contains("evicted_before BIGINT NOT NULL", "epoch_seconds BIGINT", "timestamp_bits INT",
					"sequence_bits INT");
	}

	@ParameterizedTest
	@EnumSource(SqlDialect.class)
	void substitutesTheConfiguredTableName(SqlDialect dialect) {
		List<String> statements = dialect.schemaStatements(new RegistryTables("ids.my_table"));
		assertThat(statements).hasSize(2).noneMatch((statement) -> statement.contains("crid_allocations"));
		assertThat(statements.get(0)).contains(" ids.my_table (");
		assertThat(statements.get(1)).contains(" ids.my_table_meta (");
	}

	@ParameterizedTest
	@EnumSource(SqlDialect.class)
	void theMetadataStatementsCreateTheMetadataTableAlone(SqlDialect dialect) {
		assertThat(SchemaScript.metadataStatements(dialect.schemaScript(), "ids.my_table")).singleElement()
			.asString()
			.contains(" ids.my_table_meta (");
	}

}
