package dev.crid.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.crid.InvalidConfigException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One report for every rule a setting breaks, wherever it was found: crid-core's and
 * crid-jdbc's refusals are mapped to their properties by the setting's name, never by the
 * sentence, and a named node's are named under {@code crid.nodes.<name>.*}.
 */
class ViolationReportTest {

	@Test
	void mapsACoreSettingToItsPropertyByNameNotBySentence() {
		InvalidConfigException refused = new InvalidConfigException(
				List.of(new InvalidConfigException.Violation("blockSize", 0L, "reads differently in a later release"),
						new InvalidConfigException.Violation(InvalidConfigException.Violation.BIT_SPLIT, 64L,
								"is worded anew as well")));
		CridConfigurationException failure = CridConfigurationException.refused(CridNodes.DEFAULT_NODE,
				Setting.Builder.NODE, refused);
		assertThat(failure.violations()).extracting(Violation::setting)
			.containsExactly(Setting.BLOCK_SIZE, Setting.BIT_SPLIT);
		assertThat(failure.description())
			.contains("    Property: crid.block-size\n    Value: 0\n    Reason: reads differently in a later release\n")
			.contains("    Property: crid.timestamp-bits + crid.sequence-bits\n    Value: 64\n");
		assertThat(failure.action()).contains("Set crid.block-size between 1 and 2^crid.sequence-bits (default 10000).")
			.contains("crid.timestamp-bits=31 and crid.sequence-bits=32 (the defaults)");
	}

	@Test
	void mapsARegistrySettingByTheBuilderThatRefusedIt() {
		InvalidConfigException refused = new InvalidConfigException(
				List.of(new InvalidConfigException.Violation("queryTimeout", Duration.ZERO, "must be positive"),
						new InvalidConfigException.Violation("tableName", "no such-table", "must be a table name")));
		assertThat(CridConfigurationException.refused(CridNodes.DEFAULT_NODE, Setting.Builder.JDBC_REGISTRY, refused)
			.violations()).extracting(Violation::setting)
			.containsExactly(Setting.JDBC_QUERY_TIMEOUT, Setting.JDBC_TABLE_NAME);
		CridConfigurationException r2dbc = CridConfigurationException.refused(CridNodes.DEFAULT_NODE,
				Setting.Builder.R2DBC_REGISTRY, refused);
		assertThat(r2dbc.violations()).extracting(Violation::setting)
			.containsExactly(Setting.CUSTOMIZED, Setting.R2DBC_TABLE_NAME);
		assertThat(r2dbc.description()).contains("    Property: crid.registry.r2dbc.table-name\n"
				+ "    Value: \"no such-table\"\n    Reason: must be a table name\n");
	}

	@Test
	void namesANamedNodesPropertiesInTheDescriptionAndTheFix() {
		CridConfigurationException failure = new CridConfigurationException("public",
				List.of(new Violation(Setting.THRESHOLD, 5000L, "must not exceed blockSize 100")), null, null);
		assertThat(failure.description()).contains("    Property: crid.nodes.public.threshold\n    Value: 5000\n");
		assertThat(failure.action())
			.contains("Set crid.nodes.public.threshold no higher than crid.nodes.public.block-size");
	}

	@Test
	void listsASettingWithoutPropertyByItsRuleAlone() {
		InvalidConfigException refused = new InvalidConfigException(
				List.of(new InvalidConfigException.Violation("registry", null, "must be set")));
		CridConfigurationException failure = CridConfigurationException.refused(CridNodes.DEFAULT_NODE,
				Setting.Builder.NODE, refused, "(A CridNodeCustomizer bean may have changed these settings.)");
		assertThat(failure.description()).doesNotContain("Property:")
			.contains("    Reason: registry must be set\n")
			.contains("A CridNodeCustomizer bean may have changed these settings");
		assertThat(failure.action()).endsWith("- Correct what the application's CridNodeCustomizer beans set.");
	}

	@Test
	void saysWhereEachValueCameFromAndWhatANamedNodeInherits() {
		List<Violation> violations = List.of(new Violation(Setting.BLOCK_SIZE, 0L, "must be at least 1"),
				new Violation(Setting.THRESHOLD, 5000L, "must not exceed blockSize 0"),
				new Violation(Setting.RUNWAY, Duration.ofDays(2), "must be at most a day"));
		Map<String, String> origins = Map.of("crid.nodes.a.block-size", "class path resource [a.properties] - 3:24",
				"crid.nodes.a.threshold", "class path resource [a.properties] - 1:16 (crid.threshold, inherited)");
		String description = ViolationReport.describe("a", violations, null, origins::get);
		assertThat(description)
			.contains("    Property: crid.nodes.a.block-size\n    Value: 0\n"
					+ "    Origin: class path resource [a.properties] - 3:24\n    Reason: must be at least 1\n")
			.contains("    Origin: class path resource [a.properties] - 1:16 (crid.threshold, inherited)\n")
			.contains("    Property: crid.nodes.a.runway\n    Value: PT48H\n    Reason: must be at most a day\n");
	}

}
