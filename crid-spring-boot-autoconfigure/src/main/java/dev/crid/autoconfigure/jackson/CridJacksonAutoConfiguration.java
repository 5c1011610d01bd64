package dev.crid.autoconfigure.jackson;

import dev.crid.CridId;
import dev.crid.autoconfigure.CridProperties;
import tools.jackson.databind.JacksonModule;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the {@link CridJacksonModule}, which Spring Boot adds to its JSON mapper so that
 * {@link CridId} values, and {@code @Crid} properties unless {@code crid.jackson.ids-as-strings=false},
 * travel as JSON strings.
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
		return new CridJacksonModule(properties.getJackson().isIdsAsStrings());
	}

}
