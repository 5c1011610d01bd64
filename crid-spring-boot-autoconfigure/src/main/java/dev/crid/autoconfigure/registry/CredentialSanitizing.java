package dev.crid.autoconfigure.registry;

import java.util.Locale;

import org.springframework.boot.actuate.endpoint.SanitizingFunction;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Keeps crid's etcd passwords ({@code crid.registry.etcd.password} and
 * {@code crid.nodes.<name>.registry.etcd.password}) out of the actuator's {@code env} and
 * {@code configprops} endpoints. Spring Boot shows no value there by default; an
 * application that lets them show values ({@code management.endpoint.*.show-values})
 * still sees {@code ******} for these, in any of the property's forms (an environment
 * variable {@code CRID_REGISTRY_ETCD_PASSWORD} too), whichever registry is chosen.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(name = "org.springframework.boot.actuate.endpoint.SanitizingFunction")
class CredentialSanitizing {

	@Bean
	@ConditionalOnMissingBean(name = "cridSanitizingFunction")
	SanitizingFunction cridSanitizingFunction() {
		return SanitizingFunction.sanitizeValue().ifKeyMatches(CredentialSanitizing::isEtcdPassword);
	}

	/**
	 * Tells whether a property, in any of Spring Boot's forms, is an etcd password of
	 * crid's.
	 */
	static boolean isEtcdPassword(String key) {
		String letters = key.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
		return letters.startsWith("crid") && letters.endsWith("registryetcdpassword");
	}

}
