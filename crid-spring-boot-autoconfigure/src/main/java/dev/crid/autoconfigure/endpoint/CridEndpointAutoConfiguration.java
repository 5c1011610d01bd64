package dev.crid.autoconfigure.endpoint;

import java.util.LinkedHashMap;
import java.util.Map;

import dev.crid.CridNode;
import dev.crid.Registry;
import dev.crid.actuate.endpoint.CridEndpoint;
import dev.crid.autoconfigure.CridAutoConfiguration;
import dev.crid.autoconfigure.CridNodes;
import dev.crid.autoconfigure.CridProperties;

import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the {@link CridEndpoint} when it is available (exposed, and
 * access not switched off): {@code management.endpoints.web.exposure.include=crid}
 * exposes it over HTTP.
 */
@AutoConfiguration(after = CridAutoConfiguration.class)
@ConditionalOnClass({ CridNode.class, Endpoint.class, ConditionalOnAvailableEndpoint.class })
@ConditionalOnBooleanProperty(name = "crid.enabled", matchIfMissing = true)
@ConditionalOnBean(CridNodes.class)
@ConditionalOnAvailableEndpoint(CridEndpoint.class)
@EnableConfigurationProperties(CridProperties.class)
public final class CridEndpointAutoConfiguration {

	CridEndpointAutoConfiguration() {
	}

	@Bean
	@ConditionalOnMissingBean
	CridEndpoint cridEndpoint(CridNodes cridNodes, CridProperties properties) {
		Map<String, CridNode> nodes = cridNodes.all();
		Map<String, Registry> registries = new LinkedHashMap<>();
		nodes.keySet().forEach((name) -> {
			Registry registry = cridNodes.registry(name);
			if (registry != null) {
				registries.put(name, registry);
			}
		});
		return new CridEndpoint(nodes, registries, properties.getIdFormat());
	}

}
