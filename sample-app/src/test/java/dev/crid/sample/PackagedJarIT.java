package dev.crid.sample;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The executable jar that {@code mvn package} builds starts with {@code java -jar},
 * answers on its port and stops when asked. Run by Failsafe after packaging; the jar's
 * path comes in the system property {@code sample.jar}. With {@code sample.aot=true},
 * which the {@code native} profile sets after Spring's ahead-of-time processing, the jar
 * is started in AOT mode ({@code -Dspring.aot.enabled=true}), as a native image would run
 * it.
 */
class PackagedJarIT {

	private static final boolean AOT = Boolean.getBoolean("sample.aot");

	private static final Pattern PORT = Pattern.compile("Tomcat started on port (\\d+)");

	private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(120);

	private Process process;

	@AfterEach
	void stop() throws InterruptedException {
		if (this.process != null && this.process.isAlive()) {
			this.process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
		}
	}

	@Test
	void startsWithJavaJarAnswersOnItsPortAndStopsOnSigterm() throws Exception {
		Path jar = Paths.get(System.getProperty("sample.jar", "target/sample-app.jar"));
		assertThat(jar).as("the packaged jar (run mvn package first)").isRegularFile();
		Path log = jar.resolveSibling(AOT ? "packaged-jar-aot-it.log" : "packaged-jar-it.log");
		String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
		// server.port=0 lets the server take a free port, which it logs; that avoids
		// racing for one. C1 only: the JVM starts faster on a busy machine; the jar is
		// what is being tested, not the JIT.
		this.process = new ProcessBuilder(java, "-XX:TieredStopAtLevel=1", "-Dspring.aot.enabled=" + AOT, "-jar",
				jar.toString(), "--server.port=0")
			.redirectErrorStream(true)
			.start();
		CompletableFuture<Integer> port = new CompletableFuture<>();
		Thread copier = new Thread(() -> copyOutput(this.process, log, port), "sample-app-output");
		copier.setDaemon(true);
		copier.start();

		int httpPort = port.get(STARTUP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
		SampleApi api = new SampleApi(httpPort);
		JsonNode health = api.get("/actuator/health").json();
		assertThat(health.at("/components/crid/status").stringValue()).as("health: %s", health).isEqualTo("UP");
		JsonNode order = api.createOrder("Margaret", "guidance computer");
		String id = order.get("id").stringValue();
		assertThat(api.get("/orders/" + id).json()).isEqualTo(order);
		SampleApi.Response decoded = api.get("/ids/" + id);
		assertThat(decoded.status()).isEqualTo(200);
		assertThat(decoded.json().get("id").stringValue()).isEqualTo(id);
		assertThat(decoded.json().get("sequence").asLong()).isEqualTo(Long.parseLong(id) & 0xFFFF_FFFFL);
		// The named node public, registered by its own bean definition: its IDs stay
		// below 2^53.
		SampleApi.Response shipment = api.post("/shipments",
				"{\"orderId\":\"" + id + "\",\"destination\":\"1 Apollo Way\"}");
		assertThat(shipment.status()).as("shipment: %s", shipment.json()).isEqualTo(201);
		assertThat(Long.parseLong(shipment.json().get("id").stringValue())).isPositive().isLessThan(1L << 53);

		// SIGTERM through the handle: Process.destroy() would also close the pipe and
		// lose the shutdown log.
		this.process.toHandle().destroy();
		assertThat(this.process.waitFor(30, TimeUnit.SECONDS)).as("the application stops on SIGTERM").isTrue();
		copier.join(Duration.ofSeconds(10).toMillis());
		assertThat(Files.readString(log)).contains("Started SampleApplication", "Graceful shutdown complete")
			.contains(AOT ? "Starting AOT-processed SampleApplication" : "Starting SampleApplication");
	}

	private static void copyOutput(Process process, Path log, CompletableFuture<Integer> port) {
		try (BufferedReader reader = new BufferedReader(
				new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
				PrintWriter out = new PrintWriter(Files.newBufferedWriter(log, StandardCharsets.UTF_8), true)) {
			String line;
			while ((line = reader.readLine()) != null) {
				out.println(line);
				Matcher matcher = PORT.matcher(line);
				if (matcher.find()) {
					port.complete(Integer.parseInt(matcher.group(1)));
				}
			}
			port.completeExceptionally(new IllegalStateException(
					"The application exited with " + process.waitFor() + " before it logged its port; see " + log));
		}
		catch (IOException ex) {
			port.completeExceptionally(new UncheckedIOException(ex));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			port.completeExceptionally(ex);
		}
	}

}
