package dev.crid.autoconfigure.jackson;

import java.util.List;

import dev.crid.CridId;
import dev.crid.autoconfigure.CridConfigurationException;
import dev.crid.autoconfigure.CridNodes;
import dev.crid.autoconfigure.CridProperties;
import dev.crid.autoconfigure.Setting;
import dev.crid.autoconfigure.Violation;
import dev.crid.format.IdFormat;
import dev.crid.jackson.CridJacksonModule;
import tools.jackson.databind.JacksonModule;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the {@link CridJacksonModule}, which Spring Boot adds to its JSON
 * mapper so that {@link CridId} values, and {@code @Crid} properties unless
 * {@code crid.jackson.ids-as-strings=false}, travel as JSON strings, in the form
 * {@code crid.id-format} chooses. Base32 with {@code crid.jackson.ids-as-strings=false}
 * stops start-up: the two cannot both hold.
 */
@AutoConfiguration(beforeName = "org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration")
@ConditionalOnClass({ CridId.class, JacksonModule.class })
@ConditionalOnBooleanProperty(name = "crid.enabled", matchIfMissing = true)
@EnableConfigurationProperties(CridProperties.class)
public final class CridJacksonAutoConfiguration {

	CridJacksonAutoConfiguration() {
	}

	@Bean
	@ConditionalOnMissingBean
	CridJacksonModule cridJacksonModule(CridProperties properties) {
		boolean idsAsStrings = properties.getJackson().isIdsAsStrings();
		IdFormat format = properties.getIdFormat();
		if (format == IdFormat.BASE32 && !idsAsStrings) {
			throw base32WithNumbers();
		}
		return new CridJacksonModule(idsAsStrings, format);
	}

	/**
	 * Refuses base32 IDs with {@code @Crid} properties as JSON numbers: base32 is a form
	 * of text, so a client would get IDs in two forms, and a base32 string it sends back
	 * into a {@code @Crid} property would be read by Jackson as decimal, "0000000000010"
	 * as 10 instead of 32.
	 */
	private static CridConfigurationException base32WithNumbers() {
		return new CridConfigurationException(CridNodes.DEFAULT_NODE, List.of(new Violation(Setting.ID_FORMAT,
				IdFormat.BASE32.lowerCaseName(),
				"needs crid.jackson.ids-as-strings=true: base32 IDs are JSON strings, but "
						+ "crid.jackson.ids-as-strings=false writes @Crid properties as JSON numbers, so clients would "
						+ "see IDs in two forms")),
				null, null);
	}

}
