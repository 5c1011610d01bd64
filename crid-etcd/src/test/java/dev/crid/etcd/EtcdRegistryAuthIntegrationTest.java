package dev.crid.etcd;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import io.etcd.jetcd.Auth;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.auth.Permission;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.crid.RegistryException;
import dev.crid.testsupport.EtcdCluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@link EtcdRegistry} on a cluster with authentication on: a user with read and write
 * permission on the registry's prefix reserves and checks; a wrong password and a prefix
 * the user may not touch are lasting failures, which asking again cannot mend.
 */
class EtcdRegistryAuthIntegrationTest {

	private static final String PREFIX = "crid-auth/";

	private static EtcdCluster cluster;

	@BeforeAll
	static void startClusterWithAuthentication() throws Exception {
		cluster = EtcdCluster.start();
		try (Client admin = cluster.client()) {
			Auth auth = admin.getAuthClient();
			auth.userAdd(bytes("root"), bytes("root-password")).get(10, TimeUnit.SECONDS);
			auth.roleAdd(bytes("root")).get(10, TimeUnit.SECONDS);
			auth.userGrantRole(bytes("root"), bytes("root")).get(10, TimeUnit.SECONDS);
			auth.roleAdd(bytes("crid")).get(10, TimeUnit.SECONDS);
			auth.roleGrantPermission(bytes("crid"), bytes(PREFIX), bytes("crid-auth0"), Permission.Type.READWRITE)
				.get(10, TimeUnit.SECONDS);
			auth.userAdd(bytes("ids"), bytes("secret")).get(10, TimeUnit.SECONDS);
			auth.userGrantRole(bytes("ids"), bytes("crid")).get(10, TimeUnit.SECONDS);
			auth.authEnable().get(10, TimeUnit.SECONDS);
		}
	}

	@AfterAll
	static void stopCluster() throws Exception {
		if (cluster != null) {
			cluster.close();
		}
	}

	@Test
	void aUserWithPermissionOnThePrefixReservesAndPassesTheCheck() {
		try (Client client = client("secret")) {
			EtcdRegistry registry = EtcdRegistry.builder(client).keyPrefix(PREFIX).build();
			assertThat(registry.allocate(1, 10)).isZero();
			assertThat(registry.allocate(1, 10)).isEqualTo(10);
			assertThat(registry.check()).isTrue();
		}
	}

	@Test
	void aWrongPasswordIsALastingFailure() {
		try (Client client = client("wrong")) {
			EtcdRegistry registry = EtcdRegistry.builder(client).keyPrefix(PREFIX).build();
			assertThatExceptionOfType(RegistryException.class).isThrownBy(() -> registry.allocate(1, 10))
				.satisfies((ex) -> assertThat(ex.isRetryable()).as("retryable").isFalse())
				.withMessageContaining("authentication failed");
		}
	}

	@Test
	void aPrefixTheUserMayNotTouchIsALastingFailure() {
		try (Client client = client("secret")) {
			EtcdRegistry registry = EtcdRegistry.builder(client).keyPrefix("elsewhere/").build();
			assertThatExceptionOfType(RegistryException.class).isThrownBy(() -> registry.allocate(1, 10))
				.satisfies((ex) -> assertThat(ex.isRetryable()).as("retryable").isFalse())
				.withMessageContaining("permission denied");
			assertThatExceptionOfType(RegistryException.class).isThrownBy(registry::check)
				.satisfies((ex) -> assertThat(ex.isRetryable()).as("retryable").isFalse());
		}
	}

	private static Client client(String password) {
		return Client.builder()
			.endpoints(cluster.endpoints().toArray(String[]::new))
			.user(bytes("ids"))
			.password(bytes(password))
			.build();
	}

	private static ByteSequence bytes(String text) {
		return ByteSequence.from(text, StandardCharsets.UTF_8);
	}

}
