package dev.crid.sample;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
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

	private final int port;

	private final String baseUrl;

	SampleApi(int port) {
		this.port = port;
		this.baseUrl = "http://localhost:" + port;
	}

	/**
	 * Places an order with one line item per product, each of quantity 1, and checks it
	 * was created.
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

	/**
	 * Sends only the head of a JSON POST that announces {@code contentLength} bytes,
	 * never the body, and reads the answer: a server that waited for the body would not
	 * answer within the read timeout.
	 */
	Response postHeadOnly(String path, long contentLength) {
		return raw("POST " + path + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
				+ "Content-Length: " + contentLength + "\r\nConnection: close\r\n\r\n", new byte[0]);
	}

	/**
	 * Sends a JSON POST whose body goes out in chunks, without a {@code Content-Length},
	 * and reads the answer.
	 */
	Response postChunked(String path, String body) {
		ByteArrayOutputStream chunks = new ByteArrayOutputStream();
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		for (int offset = 0; offset < bytes.length; offset += 8192) {
			int length = Math.min(8192, bytes.length - offset);
			chunks.writeBytes((Integer.toHexString(length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
			chunks.write(bytes, offset, length);
			chunks.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
		}
		chunks.writeBytes("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
		return raw("POST " + path + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
				+ "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n", chunks.toByteArray());
	}

	/**
	 * Writes a request byte for byte on a socket of its own and reads one answer: its
	 * head, then as many bytes as its {@code Content-Length} says, or its chunks.
	 */
	private Response raw(String head, byte[] body) {
		try (Socket socket = new Socket("localhost", this.port)) {
			socket.setSoTimeout((int) Duration.ofSeconds(20).toMillis());
			OutputStream out = socket.getOutputStream();
			out.write(head.getBytes(StandardCharsets.US_ASCII));
			try {
				out.write(body);
				out.flush();
			}
			catch (IOException ex) {
				// The server may answer, and close, before it has taken the whole body:
				// read what it said.
			}
			InputStream in = socket.getInputStream();
			String responseHead = readLine(in);
			int status = Integer.parseInt(responseHead.substring(9, 12));
			long contentLength = -1;
			for (String header = readLine(in); !header.isEmpty(); header = readLine(in)) {
				if (header.toLowerCase().startsWith("content-length:")) {
					contentLength = Long.parseLong(header.substring(15).strip());
				}
			}
			ByteArrayOutputStream received = new ByteArrayOutputStream();
			if (contentLength >= 0) {
				received.writeBytes(in.readNBytes((int) contentLength));
			}
			else {
				int size = Integer.parseInt(readLine(in), 16);
				while (size > 0) {
					received.writeBytes(in.readNBytes(size));
					readLine(in);
					size = Integer.parseInt(readLine(in), 16);
				}
			}
			return new Response(status, null, null, received.toString(StandardCharsets.UTF_8));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static String readLine(InputStream in) throws IOException {
		StringBuilder line = new StringBuilder();
		for (int b = in.read(); b != '\n'; b = in.read()) {
			if (b < 0) {
				throw new IOException("The server closed the connection mid-line: " + line);
			}
			if (b != '\r') {
				line.append((char) b);
			}
		}
		return line.toString();
	}

	private URI uri(String path) {
		return URI.create(this.baseUrl + path);
	}

	private Response send(HttpRequest.Builder request) {
		try {
			HttpResponse<String> response = this.client.send(request.timeout(Duration.ofSeconds(30)).build(),
					HttpResponse.BodyHandlers.ofString());
			return new Response(response.statusCode(), response.headers().firstValue("Location").orElse(null),
					response.headers().firstValue("Retry-After").orElse(null), response.body());
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
	 * @param retryAfter the {@code Retry-After} header, or {@code null}
	 * @param body the body
	 */
	record Response(int status, String location, String retryAfter, String body) {

		JsonNode json() {
			return json.readTree(this.body);
		}

	}

}
