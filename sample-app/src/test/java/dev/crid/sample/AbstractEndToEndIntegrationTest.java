package dev.crid.sample;

import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

import dev.crid.sample.web.RequestSizeLimit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a user of the sample application sees over HTTP, on whichever database a subclass
 * runs it.
 */
abstract class AbstractEndToEndIntegrationTest {

	/**
	 * The default layout, computed here independently of crid: 2026-01-01T00:00:00Z, 32
	 * sequence bits.
	 */
	private static final Instant EPOCH = Instant.parse("2026-01-01T00:00:00Z");

	private static final long SEQUENCE_MASK = 0xFFFF_FFFFL;

	/**
	 * Returns a client of the running application.
	 * @return the client
	 */
	protected abstract SampleApi api();

	/**
	 * Returns the registry dialect the crid health component and endpoint should report.
	 * @return the dialect's name in lower case
	 */
	protected abstract String expectedDialect();

	@Test
	void placesAnOrderWhoseIdsAreDistinctJsonStrings() {
		SampleApi.Response response = api().post("/orders",
				"{\"customer\":\"Ada\",\"items\":[{\"product\":\"keyboard\",\"quantity\":1},"
						+ "{\"product\":\"mouse\",\"quantity\":2}]}");
		assertThat(response.status()).isEqualTo(201);
		JsonNode order = response.json();
		assertThat(order.get("id").isString()).as("order id is a JSON string: %s", order).isTrue();
		assertThat(response.location()).isEqualTo("/orders/" + order.get("id").stringValue());
		assertThat(order.get("customer").stringValue()).isEqualTo("Ada");
		assertThat(order.get("items")).hasSize(2);
		List<Long> ids = new ArrayList<>();
		ids.add(Long.parseLong(order.get("id").stringValue()));
		for (JsonNode item : order.get("items")) {
			assertThat(item.get("id").isString()).as("item id is a JSON string: %s", item).isTrue();
			ids.add(Long.parseLong(item.get("id").stringValue()));
		}
		assertThat(ids).doesNotHaveDuplicates().allSatisfy((id) -> assertThat(id).isPositive());
		assertThat(order.at("/items/1/quantity").asInt()).isEqualTo(2);
	}

	@Test
	void fetchesAnOrderAsItWasReturnedWhenPlaced() {
		JsonNode created = api().createOrder("Grace", "compiler", "manual");
		SampleApi.Response fetched = api().get("/orders/" + created.get("id").stringValue());
		assertThat(fetched.status()).isEqualTo(200);
		assertThat(fetched.json()).isEqualTo(created);
	}

	@Test
	void listsTheNewestOrdersFirst() {
		JsonNode older = api().createOrder("Alan", "tape");
		JsonNode newer = api().createOrder("Alan", "drum");
		SampleApi.Response list = api().get("/orders?limit=100");
		assertThat(list.status()).isEqualTo(200);
		List<String> ids = new ArrayList<>();
		list.json().forEach((order) -> ids.add(order.get("id").stringValue()));
		assertThat(ids).containsSubsequence(newer.get("id").stringValue(), older.get("id").stringValue());
		assertThat(api().get("/orders?limit=1").json()).hasSize(1);
		assertThat(api().get("/orders?limit=0").status()).isEqualTo(400);
	}

	@Test
	void decodesAnIdIntoTheSecondItsBlockWasReservedInAndItsSequence() {
		JsonNode order = api().createOrder("Edsger", "pen");
		Instant placed = Instant.now();
		String id = order.at("/items/0/id").stringValue();
		long value = Long.parseLong(id);
		SampleApi.Response response = api().get("/ids/" + id);
		assertThat(response.status()).isEqualTo(200);
		JsonNode decoded = response.json();
		assertThat(decoded.get("id").stringValue()).isEqualTo(id);
		Instant timestamp = Instant.parse(decoded.get("timestamp").stringValue());
		assertThat(timestamp).isEqualTo(EPOCH.plusSeconds(value >>> 32));
		assertThat(decoded.get("sequence").asLong()).isEqualTo(value & SEQUENCE_MASK);
		Instant jvmStart = Instant.ofEpochMilli(ManagementFactory.getRuntimeMXBean().getStartTime());
		assertThat(timestamp).isBetween(jvmStart.truncatedTo(ChronoUnit.SECONDS), placed);
	}

	// The endpoint reads base32 too, where "abc" and "-1" are IDs: its bad IDs are bad in
	// both forms.
	@ParameterizedTest
	@ValueSource(strings = { "/ids/abc", "/ids/-1", "/ids/9223372036854775808", "/ids/12x", "/orders/abc", "/orders/-7",
			"/actuator/crid/12U", "/actuator/crid/-1.5" })
	void answers400NamingTheBadId(String path) {
		SampleApi.Response response = api().get(path);
		assertThat(response.status()).isEqualTo(400);
		String badId = path.substring(path.lastIndexOf('/') + 1);
		assertThat(response.json().get("detail").stringValue()).contains("\"" + badId + "\"");
	}

	@Test
	void answers404ForAnOrderThatDoesNotExist() {
		SampleApi.Response response = api().get("/orders/42");
		assertThat(response.status()).isEqualTo(404);
		assertThat(response.json().get("detail").stringValue()).isEqualTo("No order with ID 42");
	}

	@Test
	void answers400ForAnOrderWithoutItems() {
		SampleApi.Response response = api().post("/orders", "{\"customer\":\"Ada\",\"items\":[]}");
		assertThat(response.status()).isEqualTo(400);
		assertThat(response.json().get("detail").stringValue()).isEqualTo("items must hold at least one item");
	}

	@Test
	void takesACustomerNameAsLongAsItsColumnAndRefusesOneCharacterMore() {
		assertThat(api().createOrder("a".repeat(255), "pen").get("customer").stringValue()).hasSize(255);
		SampleApi.Response response = api().post("/orders", order("\"" + "a".repeat(256) + "\"", "\"pen\"", "1"));
		assertThat(response.status()).isEqualTo(400);
		assertThat(response.json().get("detail").stringValue()).isEqualTo("customer must be at most 255 characters");
		assertThat(response.json().at("/errors/0/field").stringValue()).isEqualTo("customer");
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
			{"items":[{"product":"pen","quantity":1}]}               | customer must not be blank
			{"customer":" ","items":[{"product":"pen","quantity":1}]} | customer must not be blank
			{"customer":"Ada"}                                        | items must hold at least one item
			{"customer":"Ada","items":[null]}                         | items[0] must not be null
			{"customer":"Ada","items":[{"quantity":1}]}               | items[0].product must not be blank
			{"customer":"Ada","items":[{"product":"pen"}]}            | items[0].quantity must not be null
			""")
	void namesTheMissingOrBlankField(String body, String detail) {
		assertProblem(api().post("/orders", body), 400, detail);
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', textBlock = """
			0     | items[0].quantity must be at least 1
			-3    | items[0].quantity must be at least 1
			10001 | items[0].quantity must be at most 10000
			""")
	void namesABadQuantityAndTheBound(String quantity, String detail) {
		assertThat(api().createOrder("Ada", "pen").at("/items/0/quantity").asInt()).isEqualTo(1);
		assertThat(api().post("/orders", order("\"Ada\"", "\"pen\"", "10000")).status()).isEqualTo(201);
		assertProblem(api().post("/orders", order("\"Ada\"", "\"pen\"", quantity)), 400, detail);
	}

	@Test
	void reportsEveryInvalidFieldAtOnce() {
		SampleApi.Response response = api().post("/orders", order("\"\"", "\"\"", "0"));
		assertProblem(response, 400,
				"customer must not be blank; items[0].product must not be blank; items[0].quantity must be at least 1");
		assertThat(response.json().get("errors")).hasSize(3);
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', quoteCharacter = '\'', textBlock = """
			"two"      | Cannot deserialize value of type `java.lang.Integer` from String "two"
			1.5        | Cannot coerce Floating-point value (1.5)
			3000000000 | Numeric value (3000000000) out of range of `int` (-2147483648 - 2147483647)
			""")
	void saysWhyAQuantityIsUnreadable(String quantity, String reason) {
		SampleApi.Response response = api().post("/orders", order("\"Ada\"", "\"pen\"", quantity));
		assertThat(response.status()).isEqualTo(400);
		assertThat(response.json().get("detail").stringValue())
			.startsWith("Unreadable JSON at items[0].quantity: " + reason);
	}

	@Test
	void saysWhereJsonThatIsNotJsonBreaksOff() {
		assertProblem(api().post("/orders", "{\"customer\": \"Ada\", \"items\": ["), 400,
				"Unreadable JSON at items: Unexpected end-of-input: expected close marker for Array");
		assertThat(api().post("/orders", "{\"customer\": Ada}").json().get("detail").stringValue())
			.startsWith("Unreadable JSON at line 1, column 14: Unrecognized token 'Ada'");
	}

	@Test
	void saysABodyIsMissingWithoutNamingTheJavaMethod() {
		SampleApi.Response response = api().post("/orders", "");
		assertProblem(response, 400, "Required request body is missing");
		assertThat(response.body()).doesNotContain("dev.crid.sample").doesNotContain("ResponseEntity");
	}

	@Test
	void refusesATwentyMegabyteBodyWithoutReadingIt() {
		SampleApi.Response response = api().postHeadOnly("/orders", 20L * 1024 * 1024);
		assertThat(response.status()).isEqualTo(413);
		assertThat(response.body()).contains("\"detail\":\"The request body is larger than 65536 bytes\"");
	}

	@Test
	void takesABodyOfTheLargestSizeAndRefusesOneByteMore() {
		String order = order("\"Ada\"", "\"pen\"", "1");
		String padded = order + " ".repeat(RequestSizeLimit.MAX_BYTES - order.length());
		assertThat(api().post("/orders", padded).status()).isEqualTo(201);
		assertThat(api().postHeadOnly("/orders", RequestSizeLimit.MAX_BYTES + 1).status()).isEqualTo(413);
	}

	@Test
	void refusesALargeBodySentInChunksOnceItPassesTheBound() {
		String order = order("\"" + "a".repeat(200_000) + "\"", "\"pen\"", "1");
		SampleApi.Response response = api().postChunked("/orders", order);
		assertThat(response.status()).isEqualTo(413);
		assertThat(response.body()).contains("The request body is larger than 65536 bytes");
		assertThat(api().postChunked("/orders", order("\"Ada\"", "\"pen\"", "1")).status()).isEqualTo(201);
	}

	private static String order(String customer, String product, String quantity) {
		return "{\"customer\":" + customer + ",\"items\":[{\"product\":" + product + ",\"quantity\":" + quantity
				+ "}]}";
	}

	private static void assertProblem(SampleApi.Response response, int status, String detail) {
		assertThat(response.status()).as(response.body()).isEqualTo(status);
		assertThat(response.json().get("detail").stringValue()).isEqualTo(detail);
	}

	@Test
	void recordsAnEventWithAnIdOfItsOwnForEveryOrder() {
		JsonNode order = api().createOrder("Barbara", "clu");
		String orderId = order.get("id").stringValue();
		JsonNode event = null;
		for (JsonNode candidate : api().get("/events").json()) {
			if (candidate.get("orderId").stringValue().equals(orderId)) {
				event = candidate;
			}
		}
		assertThat(event).as("event of order %s", orderId).isNotNull();
		assertThat(event.get("type").stringValue()).isEqualTo("order-created");
		assertThat(event.get("id").isString()).isTrue();
		assertThat(event.get("id").stringValue()).isNotIn(orderId, order.at("/items/0/id").stringValue());
		assertThat(api().get("/ids/" + event.get("id").stringValue()).status()).isEqualTo(200);
	}

	@Test
	void healthShowsTheCridComponentUpOnTheDatabaseRegistry() {
		SampleApi.Response response = api().get("/actuator/health");
		assertThat(response.status()).isEqualTo(200);
		JsonNode health = response.json();
		assertThat(health.get("status").stringValue()).isEqualTo("UP");
		// The component holds both nodes: the default one (orders) and the one named
		// public (shipments).
		JsonNode crid = health.at("/components/crid/components/default");
		assertThat(crid.get("status").stringValue()).as("crid health: %s", crid).isEqualTo("UP");
		assertThat(crid.at("/details/registry/kind").stringValue()).isEqualTo("jdbc");
		assertThat(crid.at("/details/registry/dialect").stringValue()).isEqualTo(expectedDialect());
		assertThat(crid.at("/details/layout/sequenceBits").asInt()).isEqualTo(32);
		JsonNode publicNode = health.at("/components/crid/components/public");
		assertThat(publicNode.get("status").stringValue()).as("crid health: %s", publicNode).isEqualTo("UP");
		assertThat(publicNode.at("/details/registry/table").stringValue()).isEqualTo("crid_public_allocations");
		assertThat(publicNode.at("/details/layout/sequenceBits").asInt()).isEqualTo(22);
	}

	@Test
	void cridEndpointDescribesTheNodeAndDecodesIdsAsTheApiDoes() {
		SampleApi.Response response = api().get("/actuator/crid");
		assertThat(response.status()).isEqualTo(200);
		JsonNode node = response.json().at("/nodes/default");
		assertThat(response.json().at("/nodes/public/layout/timestampBits").asInt()).isEqualTo(41);
		assertThat(node.at("/layout/epoch").stringValue()).isEqualTo(EPOCH.toString());
		assertThat(node.at("/registry/dialect").stringValue()).isEqualTo(expectedDialect());
		assertThat(node.get("closed").asBoolean()).isFalse();
		String id = api().createOrder("Ken", "terminal").get("id").stringValue();
		JsonNode fromEndpoint = api().get("/actuator/crid/" + id).json();
		JsonNode fromApi = api().get("/ids/" + id).json();
		assertThat(fromEndpoint.get("timestamp")).isEqualTo(fromApi.get("timestamp"));
		assertThat(fromEndpoint.get("sequence")).isEqualTo(fromApi.get("sequence"));
	}

	@Test
	void metricsCountTheIdsIssued() {
		double before = idsIssued();
		api().createOrder("Dennis", "book", "ribbon");
		// An order with two items takes four IDs: the order, its items and its event.
		assertThat(idsIssued() - before).isEqualTo(4);
		assertThat(api().get("/actuator/metrics/crid.allocations").status()).isEqualTo(200);
	}

	/**
	 * The {@code crid.ids.issued} counter of the instance under test; nothing else asks
	 * it for IDs.
	 */
	private double idsIssued() {
		SampleApi.Response response = api().get("/actuator/metrics/crid.ids.issued?tag=node:default");
		assertThat(response.status()).isEqualTo(200);
		return response.json().at("/measurements/0/value").asDouble();
	}

}
