package dev.crid.etcd;

import io.etcd.jetcd.Client;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import dev.crid.Registry;
import dev.crid.testsupport.AbstractRegistryContractTest;
import dev.crid.testsupport.EtcdCluster;

/**
 * The registry contract against {@link EtcdRegistry} on a 3-member cluster of its own,
 * through a client of all three members.
 */
class EtcdRegistryContractIntegrationTest extends AbstractRegistryContractTest {

	private static EtcdCluster cluster;

	private static Client client;

	private static EtcdRegistry registry;

	@BeforeAll
	static void startCluster() throws Exception {
		cluster = EtcdCluster.start();
		client = cluster.client();
		registry = EtcdRegistry.builder(client).keyPrefix("contract/").build();
	}

	@AfterAll
	static void stopCluster() throws Exception {
		if (client != null) {
			client.close();
		}
		if (cluster != null) {
			cluster.close();
		}
	}

	@Override
	protected Registry registry() {
		return registry;
	}

	/**
	 * Every reservation is a transaction that a quorum commits: fewer of them than in
	 * memory or on a local database keep the run short.
	 */
	@Override
	protected int reservationsPerThread() {
		return 40;
	}

}
