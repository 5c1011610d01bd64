package dev.crid.sample;

import java.time.Instant;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.crid.CridNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Spring Data JDBC shipments of the sample application, beside its JPA orders, on the
 * in-memory H2 database: each shipment gets a crid ID from the same node as the orders.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class H2ShipmentsEndToEndIntegrationTest {

	@LocalServerPort
	private int port;

	@Autowired
	private JdbcTemplate jdbc;

	@Autowired
	@Qualifier("public")
	private CridNode node;

	@Autowired
	private CridNode ordersNode;

	@Test
	void recordsAShipmentOfAnOrderWithAnIdFromThePublicNode() {
		SampleApi api = new SampleApi(this.port);
		JsonNode order = api.createOrder("Ada", "keyboard");
		String orderId = order.get("id").stringValue();
		long issuedBefore = this.node.stats().idsIssued();
		SampleApi.Response created = api.post("/shipments",
				"{\"orderId\":\"" + orderId + "\",\"destination\":\"12 Analytical Row\"}");
		assertThat(created.status()).isEqualTo(201);
		JsonNode shipment = created.json();
		String id = shipment.get("id").stringValue();
		assertThat(created.location()).isEqualTo("/shipments/" + id);
		assertThat(Long.parseLong(id)).isPositive().isNotEqualTo(Long.parseLong(orderId));
		assertThat(this.node.stats().idsIssued()).isEqualTo(issuedBefore + 1);
		// The public node's layout (41/22): every ID below 2^53, and decoded to this
		// second by it.
		assertThat(Long.parseLong(id)).isLessThan(1L << 53);
		assertThat(this.node.parser().parse(Long.parseLong(id)).timestamp()).isBetween(Instant.now().minusSeconds(60),
				Instant.now());
		assertThat(this.node).isNotSameAs(this.ordersNode);
		assertThat(this.jdbc.queryForObject("SELECT COUNT(*) FROM crid_public_allocations", Long.class)).isPositive();
		assertThat(this.jdbc.queryForObject("SELECT destination FROM shipment WHERE id = ?", String.class,
				Long.parseLong(id)))
			.isEqualTo("12 Analytical Row");
		SampleApi.Response fetched = api.get("/shipments/" + id);
		assertThat(fetched.status()).isEqualTo(200);
		assertThat(fetched.json()).isEqualTo(shipment);
		assertThat(fetched.json().get("orderId").stringValue()).isEqualTo(orderId);
	}

	@Test
	void anUnknownShipmentIsNotFound() {
		assertThat(new SampleApi(this.port).get("/shipments/1").status()).isEqualTo(404);
	}

}
