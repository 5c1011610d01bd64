package dev.crid.sample;

import dev.crid.CridId;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample application run with {@code crid.id-format=base32}, on its in-memory H2
 * database: IDs go out in 13 characters of base32, orders and shipments are read back by
 * that form in every spelling people copy, and the database holds the same IDs as
 * {@code long}s.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "crid.id-format=base32")
class Base32EndToEndIntegrationTest {

	@LocalServerPort
	private int port;

	@Autowired
	private JdbcTemplate jdbc;

	@Test
	void readsAnOrderByItsBase32Form() {
		SampleApi api = new SampleApi(this.port);
		SampleApi.Response created = api.post("/orders",
				"{\"customer\":\"Grace\",\"items\":[{\"product\":\"compiler\",\"quantity\":1}]}");
		assertThat(created.status()).isEqualTo(201);
		JsonNode order = created.json();
		String id = order.get("id").stringValue();
		assertThat(id).matches("[0-9A-HJKMNP-TV-Z]{13}");
		assertThat(order.at("/items/0/id").stringValue()).matches("[0-9A-HJKMNP-TV-Z]{13}");
		assertThat(created.location()).isEqualTo("/orders/" + id);
		long value = CridId.parseBase32(id).value();
		assertThat(this.jdbc.queryForObject("SELECT customer FROM orders WHERE id = ?", String.class, value))
			.isEqualTo("Grace");
		String grouped = id.substring(0, 4) + "-" + id.substring(4, 8) + "-" + id.substring(8);
		for (String spelling : new String[] { id, id.toLowerCase(), grouped }) {
			SampleApi.Response fetched = api.get("/orders/" + spelling);
			assertThat(fetched.status()).as(spelling).isEqualTo(200);
			assertThat(fetched.json()).as(spelling).isEqualTo(order);
		}
	}

	@Test
	void refusesTheDecimalFormAndMalformedBase32WithTheReason() {
		SampleApi api = new SampleApi(this.port);
		String id = api.createOrder("Ada", "keyboard").get("id").stringValue();
		String decimal = Long.toString(CridId.parseBase32(id).value());
		SampleApi.Response byDecimal = api.get("/orders/" + decimal);
		assertThat(byDecimal.status()).isEqualTo(400);
		assertThat(byDecimal.json().get("parameter").stringValue()).isEqualTo("id");
		assertThat(byDecimal.json().get("detail").stringValue())
			.startsWith("Invalid value for parameter 'id': Invalid base32 crid ID \"" + decimal + "\"");
		SampleApi.Response malformed = api.get("/orders/00001YG00000U");
		assertThat(malformed.status()).isEqualTo(400);
		assertThat(malformed.json().get("detail").stringValue())
			.contains("it has 'U' at index 12, which is no base32 character");
		assertThat(api.get("/orders/8000000000000").json().get("detail").stringValue())
			.contains("a value above 9223372036854775807");
	}

	@Test
	void shipsAnOrderByItsBase32Form() {
		SampleApi api = new SampleApi(this.port);
		String orderId = api.createOrder("Alan", "tape").get("id").stringValue();
		SampleApi.Response created = api.post("/shipments",
				"{\"orderId\":\"" + orderId.toLowerCase() + "\",\"destination\":\"Bletchley Park\"}");
		assertThat(created.status()).as(created.body()).isEqualTo(201);
		String id = created.json().get("id").stringValue();
		assertThat(id).matches("[0-9A-HJKMNP-TV-Z]{13}");
		assertThat(created.json().get("orderId").stringValue()).isEqualTo(orderId);
		assertThat(created.location()).isEqualTo("/shipments/" + id);
		assertThat(api.get("/shipments/" + id).json()).isEqualTo(created.json());
	}

	@Test
	void theEndpointDecodesEitherFormAndSaysWhich() {
		SampleApi api = new SampleApi(this.port);
		String id = api.createOrder("Edsger", "goto").get("id").stringValue();
		JsonNode decoded = api.get("/actuator/crid/" + id).json();
		assertThat(decoded.get("format").stringValue()).isEqualTo("base32");
		assertThat(decoded.get("base32").stringValue()).isEqualTo(id);
		JsonNode fromDecimal = api.get("/actuator/crid/" + decoded.get("id").stringValue()).json();
		assertThat(fromDecimal.get("format").stringValue()).isEqualTo("decimal");
		assertThat(fromDecimal.get("base32").stringValue()).isEqualTo(id);
	}

}
