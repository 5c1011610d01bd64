package dev.crid.autoconfigure;

import java.util.List;

import dev.crid.InvalidConfigException;
import dev.crid.InvalidConfigException.Violation;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The failure analysis finds the property behind a refused node setting by the setting's
 * name, whatever crid-core's sentence says.
 */
class ConfigurationFailuresTest {

	@Test
	void mapsASettingToItsPropertyByNameNotBySentence() {
		CridProperties properties = new CridProperties();
		properties.setBlockSize(0);
		InvalidConfigException refused = new InvalidConfigException(
				List.of(new Violation("blockSize", 0L, "reads differently in a later release"),
						new Violation(Violation.BIT_SPLIT, 64L, "is worded anew as well")));
		CridConfigurationException failure = ConfigurationFailures.invalidNodeProperties(refused, properties, false);
		assertThat(failure.description())
			.contains("    Property: crid.block-size\n    Value: 0\n"
					+ "    Reason: blockSize is 0 but reads differently in a later release\n")
			.contains("    Property: crid.timestamp-bits + crid.sequence-bits\n    Value: 31 + 32\n");
		assertThat(failure.action()).contains("Set crid.block-size between 1 and 2^crid.sequence-bits (default 10000).")
			.contains("crid.timestamp-bits=31 and crid.sequence-bits=32 (the defaults)");
	}

	@Test
	void listsASettingWithoutPropertyByItsReasonAlone() {
		InvalidConfigException refused = new InvalidConfigException(
				List.of(new Violation("registry", null, "must be set")));
		CridConfigurationException failure = ConfigurationFailures.invalidNodeProperties(refused, new CridProperties(),
				true);
		assertThat(failure.description()).doesNotContain("Property:")
			.contains("    Reason: registry is null but must be set\n")
			.contains("A CridNodeCustomizer bean may have changed these settings");
		assertThat(failure.action()).endsWith("- Correct the settings named above.");
	}

}
