package dev.crid.autoconfigure.registry;

import java.time.Duration;
import java.util.List;

import dev.crid.InvalidConfigException;
import dev.crid.Registry;
import dev.crid.autoconfigure.CridConfigurationException;
import dev.crid.autoconfigure.CridNodes;
import dev.crid.autoconfigure.CridProperties;
import dev.crid.autoconfigure.CridRegistryFactory;
import dev.crid.autoconfigure.NodeProperties;
import dev.crid.autoconfigure.RegistryProperties;
import dev.crid.autoconfigure.RegistryType;
import dev.crid.autoconfigure.Setting;
import dev.crid.autoconfigure.Violation;
import dev.crid.etcd.EtcdRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The registry on an etcd cluster: one jetcd client of crid's own, made from
 * {@code crid.registry.etcd.*} and closed on shutdown, and on it the default node's
 * registry and those of the named nodes, each under a key prefix of its own.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnRegistryType(RegistryType.ETCD)
class EtcdRegistryConfiguration {

	private static final Log logger = LogFactory.getLog(EtcdRegistryConfiguration.class);

	/**
	 * crid's client of the cluster, not a {@code Client} bean: it never stands in for a
	 * client of the application's own, nor makes one ambiguous.
	 */
	@Bean
	@ConditionalOnMissingBean
	EtcdClientHolder cridEtcdClient(CridProperties properties) {
		RegistryProperties.Etcd etcd = properties.getRegistry().getEtcd();
		EtcdClientHolder client = EtcdClientHolder.of(etcd);
		logger.info("crid uses the etcd registry at " + String.join(",", etcd.getEndpoints()) + ", keys under '"
				+ etcd.getKeyPrefix() + "'"
				+ ((etcd.getUsername() != null) ? ", as user '" + etcd.getUsername() + "'" : ""));
		return client;
	}

	@Bean
	@ConditionalOnMissingBean(Registry.class)
	EtcdRegistry cridRegistry(EtcdClientHolder cridEtcdClient, CridProperties properties) {
		return registry(CridNodes.DEFAULT_NODE, cridEtcdClient, properties);
	}

	/**
	 * Each named node's registry: through the default node's client, under the node's own
	 * key prefix.
	 */
	@Bean
	@ConditionalOnMissingBean
	CridRegistryFactory cridRegistryFactory(EtcdClientHolder cridEtcdClient) {
		return (nodeName, nodeProperties) -> registry(nodeName, cridEtcdClient, nodeProperties);
	}

	private static EtcdRegistry registry(String node, EtcdClientHolder client, NodeProperties properties) {
		RegistryProperties.Etcd etcd = properties.getRegistry().getEtcd();
		Duration retention = etcd.getRetention();
		if (!retention.isZero() && retention.compareTo(properties.getMaxClockSkew()) <= 0) {
			throw new CridConfigurationException(node, List.of(new Violation(Setting.ETCD_RETENTION, retention,
					"must exceed " + Setting.MAX_CLOCK_SKEW.properties(node).get(0) + " ("
							+ properties.getMaxClockSkew() + "): a node whose clock lags within the skew allowed would "
							+ "be refused seconds that a node ahead of it has evicted")),
					null, null);
		}
		try {
			return EtcdRegistry.builder(client.client())
				.keyPrefix(etcd.getKeyPrefix())
				.timeout(etcd.getTimeout())
				.retention(retention)
				.build();
		}
		catch (InvalidConfigException ex) {
			throw CridConfigurationException.refused(node, Setting.Builder.ETCD_REGISTRY, ex);
		}
	}

}
