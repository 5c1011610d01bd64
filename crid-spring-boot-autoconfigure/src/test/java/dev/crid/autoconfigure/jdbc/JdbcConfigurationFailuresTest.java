package dev.crid.autoconfigure.jdbc;

import java.time.Duration;
import java.util.List;

import dev.crid.InvalidConfigException;
import dev.crid.InvalidConfigException.Violation;
import dev.crid.autoconfigure.CridConfigurationException;
import dev.crid.autoconfigure.CridProperties;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The failure analysis finds the property behind a refused registry setting by the
 * setting's name, whatever crid-jdbc's sentence says, and names the registry's own
 * defaults.
 */
class JdbcConfigurationFailuresTest {

	@Test
	void mapsASettingToItsPropertyByNameNotBySentence() {
		CridProperties.JdbcProperties jdbc = new CridProperties().getRegistry().getJdbc();
		jdbc.setQueryTimeout(Duration.ZERO);
		jdbc.setTableName("no such-table");
		InvalidConfigException refused = new InvalidConfigException(
				List.of(new Violation("queryTimeout", Duration.ZERO, "reads differently in a later release"),
						new Violation("tableName", "no such-table", "is worded anew as well")));
		CridConfigurationException failure = JdbcConfigurationFailures.invalidRegistryProperties(jdbc, refused);
		assertThat(failure.description())
			.contains("    Property: crid.registry.jdbc.query-timeout\n    Value: PT0S\n"
					+ "    Reason: queryTimeout is PT0S but reads differently in a later release\n")
			.contains("    Property: crid.registry.jdbc.table-name\n    Value: 'no such-table'\n");
		assertThat(failure.action()).contains("e.g. 5s (the default)").contains("e.g. crid_allocations (the default)");
	}

}
