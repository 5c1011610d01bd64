package dev.crid.autoconfigure.endpoint;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import dev.crid.CridId;
import dev.crid.CridNode;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code crid} endpoint and health component over HTTP, in a full application on a
 * random port.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "management.endpoints.web.exposure.include=crid,health,metrics",
				"management.endpoint.health.show-details=always", "spring.web.error.include-message=always",
				"crid.registry.type=memory",
				"spring.autoconfigure.exclude="
						+ "org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration,"
						+ "org.springframework.boot.data.jpa.autoconfigure.DataJpaRepositoriesAutoConfiguration" })
class CridEndpointWebIntegrationTest {

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	private int port;

	@Autowired
	private CridNode node;

	@Autowired
	private JsonMapper jsonMapper;

	@Test
	void describesTheNode() throws Exception {
		long issued = this.node.stats().idsIssued();
		takeIds(3);
		HttpResponse<String> response = get("/actuator/crid");
		assertThat(response.statusCode()).isEqualTo(200);
		JsonNode body = this.jsonMapper.readTree(response.body());
		assertThat(body.at("/nodes/default/layout/epoch").asString()).isEqualTo("2026-01-01T00:00:00Z");
		assertThat(body.at("/nodes/default/layout/timestampBits").asInt()).isEqualTo(31);
		assertThat(body.at("/nodes/default/layout/sequenceBits").asInt()).isEqualTo(32);
		assertThat(body.at("/nodes/default/registry/kind").asString()).isEqualTo("memory");
		assertThat(body.at("/nodes/default/blockSize").asLong()).isEqualTo(CridNode.DEFAULT_BLOCK_SIZE);
		assertThat(body.at("/nodes/default/stats/idsIssued").asLong()).isEqualTo(issued + 3);
	}

	@Test
	void decodesAnId() throws Exception {
		CridId id = this.node.next();
		HttpResponse<String> response = get("/actuator/crid/" + id);
		assertThat(response.statusCode()).isEqualTo(200);
		JsonNode body = this.jsonMapper.readTree(response.body());
		assertThat(body.get("id").asString()).isEqualTo(id.toString());
		assertThat(body.get("timestamp").asString()).isEqualTo(this.node.parser().parse(id).timestamp().toString());
		assertThat(body.get("sequence").asLong()).isEqualTo(this.node.parser().parse(id).sequence());
	}

	@Test
	void decodesABase32IdAndTheFormTheRequestNames() throws Exception {
		CridId id = this.node.next();
		JsonNode body = this.jsonMapper.readTree(get("/actuator/crid/" + id.toBase32().toLowerCase()).body());
		assertThat(body.get("id").asString()).isEqualTo(id.toString());
		assertThat(body.get("base32").asString()).isEqualTo(id.toBase32());
		assertThat(body.get("format").asString()).isEqualTo("base32");
		assertThat(body.get("ambiguous").asBoolean()).isFalse();
		HttpResponse<String> named = get("/actuator/crid/0000000000010?format=base32");
		assertThat(named.statusCode()).isEqualTo(200);
		assertThat(this.jsonMapper.readTree(named.body()).get("id").asString()).isEqualTo("32");
		JsonNode unnamed = this.jsonMapper.readTree(get("/actuator/crid/0000000000010").body());
		assertThat(unnamed.get("id").asString()).isEqualTo("10");
		assertThat(unnamed.get("ambiguous").asBoolean()).isTrue();
	}

	@Test
	void answersBadIdsWith400AndTheReason() throws Exception {
		for (String bad : new String[] { "ab!", "9223372036854775808", "1u3" }) {
			HttpResponse<String> response = get("/actuator/crid/" + bad);
			assertThat(response.statusCode()).as(bad).isEqualTo(400);
			assertThat(response.body()).as(bad).contains("Invalid crid ID");
		}
	}

	@Test
	void showsTheHealthComponent() throws Exception {
		HttpResponse<String> response = get("/actuator/health");
		assertThat(response.statusCode()).isEqualTo(200);
		JsonNode crid = this.jsonMapper.readTree(response.body()).at("/components/crid");
		assertThat(crid.get("status").asString()).isEqualTo("UP");
		assertThat(crid.at("/details/registry/kind").asString()).isEqualTo("memory");
	}

	@Test
	void publishesTheMetersThroughBootsMeterRegistry() throws Exception {
		double before = measurement("crid.ids.issued", "COUNT");
		takeIds(5);
		assertThat(measurement("crid.ids.issued", "COUNT")).isEqualTo(before + 5)
			.isEqualTo((double) this.node.stats().idsIssued());
		// The first block, reserved in the background at start-up, lasts: no registry
		// call happens meanwhile.
		assertThat(measurement("crid.allocations?tag=mode:prefetch", "COUNT"))
			.isEqualTo((double) this.node.stats().prefetchAllocations().count())
			.isPositive();
		assertThat(measurement("crid.allocations?tag=mode:prefetch", "TOTAL_TIME")).isPositive();
		assertThat(measurement("crid.allocations?tag=mode:synchronous", "COUNT"))
			.isEqualTo((double) this.node.stats().synchronousAllocations().count());
	}

	private void takeIds(int count) {
		for (int i = 0; i < count; i++) {
			this.node.nextId();
		}
	}

	/** Returns one statistic of a meter, as the metrics endpoint reports it. */
	private double measurement(String meter, String statistic) throws Exception {
		HttpResponse<String> response = get("/actuator/metrics/" + meter);
		assertThat(response.statusCode()).as(meter).isEqualTo(200);
		for (JsonNode measurement : this.jsonMapper.readTree(response.body()).get("measurements")) {
			if (measurement.get("statistic").asString().equals(statistic)) {
				return measurement.get("value").asDouble();
			}
		}
		throw new AssertionError("No " + statistic + " in " + response.body());
	}

	@Test
	void writesCridIdsAsJsonStrings() {
		assertThat(this.jsonMapper.writeValueAsString(CridId.of(Long.MAX_VALUE))).isEqualTo("\"9223372036854775807\"");
	}

	private HttpResponse<String> get(String path) throws IOException, InterruptedException {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path)).build();
		return this.http.send(request, HttpResponse.BodyHandlers.ofString());
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class WebApplication {

	}

}
