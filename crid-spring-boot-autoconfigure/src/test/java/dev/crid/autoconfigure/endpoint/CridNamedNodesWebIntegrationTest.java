package dev.crid.autoconfigure.endpoint;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import dev.crid.CridNode;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A named node ({@code crid.nodes.public}) over HTTP: the {@code crid} endpoint lists it
 * and decodes with its layout at {@code /actuator/crid/public/{id}}, the {@code crid}
 * health component holds it, and its meters are tagged with its name.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "management.endpoints.web.exposure.include=crid,health,metrics",
				"management.endpoint.health.show-details=always", "spring.web.error.include-message=always",
				"crid.registry.type=memory", "crid.nodes.public.timestamp-bits=41",
				"crid.nodes.public.sequence-bits=22",
				"spring.autoconfigure.exclude="
						+ "org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration,"
						+ "org.springframework.boot.data.jpa.autoconfigure.DataJpaRepositoriesAutoConfiguration" })
class CridNamedNodesWebIntegrationTest {

	private final HttpClient http = HttpClient.newHttpClient();

	@LocalServerPort
	private int port;

	@Autowired
	@Qualifier("public")
	private CridNode publicNode;

	@Autowired
	private CridNode defaultNode;

	@Autowired
	private JsonMapper jsonMapper;

	@Test
	void listsEveryNode() throws Exception {
		JsonNode body = getJson("/actuator/crid", 200);
		assertThat(body.at("/nodes/default/layout/timestampBits").asInt()).isEqualTo(31);
		assertThat(body.at("/nodes/public/layout/timestampBits").asInt()).isEqualTo(41);
		assertThat(body.at("/nodes/public/layout/sequenceBits").asInt()).isEqualTo(22);
	}

	@Test
	void decodesWithTheNamedNodesLayout() throws Exception {
		long id = this.publicNode.nextId();
		JsonNode named = getJson("/actuator/crid/public/" + id, 200);
		assertThat(named.get("sequence").asLong()).isEqualTo(this.publicNode.parser().parse(id).sequence());
		assertThat(named.get("timestamp").asString())
			.isEqualTo(this.publicNode.parser().parse(id).timestamp().toString());
		JsonNode byDefault = getJson("/actuator/crid/" + id, 200);
		assertThat(byDefault.get("sequence").asLong()).isNotEqualTo(named.get("sequence").asLong());
		assertThat(this.defaultNode).isNotSameAs(this.publicNode);
	}

	@Test
	void anUnknownNodeIs400NamingTheKnownOnes() throws Exception {
		HttpResponse<String> response = get("/actuator/crid/nobody/1");
		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(response.body()).contains("nobody").contains("[default, public]");
	}

	@Test
	void theHealthComponentHoldsEachNode() throws Exception {
		JsonNode crid = getJson("/actuator/health/crid", 200);
		assertThat(crid.at("/components/default/status").asString()).isEqualTo("UP");
		assertThat(crid.at("/components/public/status").asString()).isEqualTo("UP");
		assertThat(crid.at("/components/public/details/layout").toString()).contains("41");
	}

	@Test
	void theNamedNodesMetersAreTaggedWithItsName() throws Exception {
		this.publicNode.nextIds(4);
		JsonNode meter = getJson("/actuator/metrics/crid.ids.issued?tag=node:public", 200);
		assertThat(meter.at("/measurements/0/value").asDouble())
			.isEqualTo((double) this.publicNode.stats().idsIssued());
		assertThat(getJson("/actuator/metrics/crid.ids.issued?tag=node:default", 200).at("/measurements/0/value")
			.asDouble()).isEqualTo((double) this.defaultNode.stats().idsIssued());
	}

	private JsonNode getJson(String path, int status) throws Exception {
		HttpResponse<String> response = get(path);
		assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(status);
		return this.jsonMapper.readTree(response.body());
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
