package dev.crid.autoconfigure;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import dev.crid.autoconfigure.registry.CridRegistryAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * An application whose {@code application.properties} sets a value crid refuses fails to
 * start with a report that names the property, its value, the file and line it came from,
 * the rule and the fix, as Spring Boot prints it.
 */
@ExtendWith(OutputCaptureExtension.class)
class ConfigurationOriginTest {

	@Test
	void namesThePropertyItsValueTheFileAndTheLineOfARefusedValue(CapturedOutput output) {
		assertThatThrownBy(() -> start("classpath:/origins/refused/"))
			.hasStackTraceContaining(CridConfigurationException.class.getName());
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("    Property: crid.block-size\n    Value: 0\n"
					+ "    Origin: class path resource [origins/refused/application.properties] - 3:17\n"
					+ "    Reason: must be in [1, 4294967296]")
			.contains("Set crid.block-size between 1 and 2^crid.sequence-bits (default 10000).");
	}

	@Test
	void namesTheLineOfCridsValueThatANamedNodeTakes(CapturedOutput output) {
		assertThatThrownBy(() -> start("classpath:/origins/inherited/"))
			.hasStackTraceContaining(CridConfigurationException.class.getName());
		assertThat(output).contains("    Property: crid.nodes.reports.threshold\n    Value: 400\n"
				+ "    Origin: class path resource [origins/inherited/application.properties] - 3:16 "
				+ "(crid.threshold, which the node takes as it sets none)\n");
	}

	private static void start(String configLocation) {
		new SpringApplicationBuilder(CridOnly.class).web(WebApplicationType.NONE)
			.properties("spring.config.location=" + configLocation)
			.run()
			.close();
	}

	@Configuration(proxyBeanMethods = false)
	@Import({ CridRegistryAutoConfiguration.class, CridAutoConfiguration.class })
	static class CridOnly {

	}

}
