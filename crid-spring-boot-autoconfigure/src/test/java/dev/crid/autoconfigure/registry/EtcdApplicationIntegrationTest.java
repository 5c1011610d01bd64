package dev.crid.autoconfigure.registry;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.options.GetOption;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import dev.crid.CridNode;
import dev.crid.Registry;
import dev.crid.autoconfigure.CridNodes;
import dev.crid.etcd.EtcdRegistry;
import dev.crid.testsupport.EtcdCluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An application with crid's auto-configuration and nothing of its own but
 * {@code crid.registry.etcd.endpoints}, on a 3-member etcd cluster of its own: it gets
 * its IDs from the cluster (a named node under a key prefix of its own), although the
 * test classpath gives it a DataSource too, and its health component {@code crid} is UP
 * with kind {@code etcd}, then DOWN once the cluster is stopped. Skipped where
 * {@code /usr/bin/etcd} is missing, except under {@code CI=true}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EtcdApplicationIntegrationTest {

	private static final JsonMapper json = JsonMapper.builder().build();

	private static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private static EtcdCluster cluster;

	private static boolean clusterStopped;

	private static ConfigurableApplicationContext application;

	private static String prefix;

	@BeforeAll
	static void startClusterAndApplication() throws Exception {
		cluster = EtcdCluster.start();
		prefix = "app-" + ThreadLocalRandom.current().nextInt(1_000_000) + "/";
		application = new SpringApplicationBuilder(Application.class)
			.properties("server.port=0", "spring.main.banner-mode=off",
					"crid.registry.etcd.endpoints=" + String.join(",", cluster.endpoints()),
					"crid.registry.etcd.key-prefix=" + prefix, "crid.nodes.reports.block-size=100",
					"crid.nodes.reports.threshold=50", "management.endpoint.health.show-details=always")
			.run();
	}

	@AfterAll
	static void stopApplicationAndCluster() throws Exception {
		if (application != null) {
			application.close();
		}
		if (cluster != null && !clusterStopped) {
			cluster.close();
		}
	}

	@Test
	@Order(1)
	void theNodesGetTheirIdsFromTheClusterUnderTheirKeyPrefixes() throws Exception {
		assertThat(application.getBean(Registry.class)).isInstanceOf(EtcdRegistry.class);
		long[] ids = application.getBean(CridNode.class).nextIds(25_000);
		long[] reports = application.getBean(CridNodes.class).get("reports").nextIds(500);
		assertThat(Arrays.stream(ids).distinct().count()).isEqualTo(ids.length);
		assertThat(Arrays.stream(reports).distinct().count()).isEqualTo(reports.length);
		try (Client client = cluster.client()) {
			List<String> keys = keys(client, prefix);
			assertThat(keys).contains(prefix + "layout", prefix + "nodes/reports/layout");
			// Two blocks of 10,000 were not enough for 25,000 IDs, nor 4 of 100 for 500.
			List<Long> seconds = values(client, prefix + "seconds/");
			List<Long> reportSeconds = values(client, prefix + "nodes/reports/seconds/");
			assertThat(seconds.stream().mapToLong(Long::longValue).sum()).isGreaterThanOrEqualTo(25_000);
			assertThat(reportSeconds.stream().mapToLong(Long::longValue).sum()).isGreaterThanOrEqualTo(500);
		}
	}

	@Test
	@Order(2)
	void theHealthComponentIsUpWithKindEtcd() throws Exception {
		JsonNode crid = health().path("components").path("crid");
		assertThat(crid.path("status").asString()).as("%s", crid).isEqualTo("UP");
		for (String node : List.of("default", "reports")) {
			JsonNode registry = crid.path("components").path(node).path("details").path("registry");
			assertThat(registry.path("kind").asString()).as("%s", crid).isEqualTo("etcd");
			assertThat(registry.path("keyPrefix").asString())
				.isEqualTo(node.equals("default") ? prefix : prefix + "nodes/reports/");
		}
	}

	@Test
	@Order(3)
	void theHealthComponentGoesDownWhenTheClusterIsStopped() throws Exception {
		clusterStopped = true;
		cluster.close();
		await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
			JsonNode crid = health().path("components").path("crid").path("components").path("default");
			assertThat(crid.path("status").asString()).as("%s", crid).isEqualTo("DOWN");
			assertThat(crid.path("details").path("registry").path("kind").asString()).isEqualTo("etcd");
			assertThat(crid.path("details").path("error").asString()).isNotEmpty();
		});
	}

	private static JsonNode health() throws Exception {
		int port = application.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
		HttpResponse<String> response = http
			.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/health"))
				.timeout(Duration.ofSeconds(10))
				.build(), HttpResponse.BodyHandlers.ofString());
		return json.readTree(response.body());
	}

	private static List<String> keys(Client client, String prefix) throws Exception {
		return kvs(client, prefix).stream().map((kv) -> kv.getKey().toString(StandardCharsets.UTF_8)).toList();
	}

	private static List<Long> values(Client client, String prefix) throws Exception {
		return kvs(client, prefix).stream()
			.map((kv) -> Long.parseLong(kv.getValue().toString(StandardCharsets.UTF_8)))
			.toList();
	}

	private static List<KeyValue> kvs(Client client, String prefix) throws Exception {
		return client.getKVClient()
			.get(ByteSequence.from(prefix, StandardCharsets.UTF_8), GetOption.builder().isPrefix(true).build())
			.get(10, TimeUnit.SECONDS)
			.getKvs();
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class Application {

	}

}
