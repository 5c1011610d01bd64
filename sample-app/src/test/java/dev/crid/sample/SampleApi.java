package dev.crid.sample;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A client of a running sample application over real HTTP, as {@code curl} would call it.
 */
final class SampleApi {

	private static final JsonMapper json = JsonMapper.shared();

	private final HttpClient client = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(5))
		.build();

	private final String baseUrl;

	SampleApi(int port) {
		this.baseUrl = "http://localhost:" + port;
	}

	/**
	 * Places an order with one line item per product, each of quantity 1, and checks it was created.
	 */
	JsonNode createOrder(String customer, String... products) {
		StringBuilder items = new StringBuilder();
		for (String product : products) {
			items.append((items.length() > 0) ? "," : "")
				.append("{\"product\":\"")
				.append(product)
				.append("\",\"quantity\":1}");
		}
		Response response = post("/orders", "{\"customer\":\"" + customer + "\",\"items\":[" + items + "]}");
		assertThat(response.status()).as("POST /orders: %s", response.body()).isEqualTo(201);
		return response.json();
	}

	Response get(String path) {
		return send(HttpRequest.newBuilder(uri(path)).GET());
	}

	Response post(String path, String body) {
		return send(HttpRequest.newBuilder(uri(path))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(body)));
	}

	private URI uri(String path) {
		return URI.create(this.baseUrl + path);
	}

	private Response send(HttpRequest.Builder request) {
		try {
			HttpResponse<String> response = this.client.send(request.timeout(Duration.ofSeconds(30)).build(),
					HttpResponse.BodyHandlers.ofString());
			return new Response(response.statusCode(), response.headers().firstValue("Location").orElse(null),
					response.body());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * An HTTP response.
	 *
	 * @param status the status code
	 * @param location the {@code Location} header, or {@code null}
	 * @param body the body
	 */
	record Response(int status, String location, String body) {

		JsonNode json() {
			return json.readTree(this.body);
		}

	}

}
