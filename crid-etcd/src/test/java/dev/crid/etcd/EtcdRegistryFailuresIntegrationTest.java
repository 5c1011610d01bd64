package dev.crid.etcd;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.etcd.jetcd.Client;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.crid.RegistryException;
import dev.crid.testsupport.FaultProxy;
import dev.crid.testsupport.EtcdCluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * How {@link EtcdRegistry} fails: a member that stops answering (a {@link FaultProxy}
 * black hole in front of it) costs a call no more than the registry's timeout, and a
 * retryable failure; an interrupted call stops at once and says so; a closed client is a
 * lasting failure.
 */
class EtcdRegistryFailuresIntegrationTest {

	/**
	 * What a call may take beyond its timeout before it returns: a thread's wake-up on a
	 * loaded machine.
	 */
	private static final Duration SLACK = Duration.ofSeconds(3);

	private static EtcdCluster cluster;

	@BeforeAll
	static void startCluster() throws Exception {
		cluster = EtcdCluster.start();
	}

	@AfterAll
	static void stopCluster() throws Exception {
		if (cluster != null) {
			cluster.close();
		}
	}

	@Test
	void aMemberThatStopsAnsweringCostsACallItsTimeoutAndARetryableFailure() throws Exception {
		try (FaultProxy proxy = FaultProxy.inFrontOf(cluster.clientPort(0));
				Client client = Client.builder().endpoints("http://127.0.0.1:" + proxy.port()).build()) {
			Duration timeout = Duration.ofMillis(700);
			EtcdRegistry registry = EtcdRegistry.builder(client).keyPrefix("timeout/").timeout(timeout).build();
			assertThat(registry.allocate(1, 10)).isZero();
			proxy.blackHole();
			for (Runnable call : new Runnable[] { () -> registry.allocate(1, 10), registry::check,
					() -> registry.evictBefore(1) }) {
				long started = System.nanoTime();
				assertThatExceptionOfType(RegistryException.class).isThrownBy(call::run)
					.satisfies((ex) -> assertThat(ex.isRetryable()).isTrue())
					.withMessageContaining("did not answer within the registry's timeout of " + timeout);
				Duration took = Duration.ofNanos(System.nanoTime() - started);
				assertThat(took).isGreaterThanOrEqualTo(timeout).isLessThan(timeout.plus(SLACK));
			}
			proxy.heal();
			await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> registry.allocate(1, 10) >= 10);
		}
	}

	@Test
	void anInterruptedCallStopsAtOnceAndKeepsTheInterrupt() throws Exception {
		try (FaultProxy proxy = FaultProxy.inFrontOf(cluster.clientPort(1));
				Client client = Client.builder().endpoints("http://127.0.0.1:" + proxy.port()).build()) {
			EtcdRegistry registry = EtcdRegistry.builder(client)
				.keyPrefix("interrupt/")
				.timeout(Duration.ofMinutes(5))
				.build();
			assertThat(registry.allocate(1, 10)).isZero();
			proxy.blackHole();
			AtomicBoolean stillInterrupted = new AtomicBoolean();
			CompletableFuture<RegistryException> failure = new CompletableFuture<>();
			Thread caller = new Thread(() -> {
				try {
					registry.allocate(1, 10);
					failure.completeExceptionally(new AssertionError("the call returned a block"));
				}
				catch (RegistryException ex) {
					stillInterrupted.set(Thread.currentThread().isInterrupted());
					failure.complete(ex);
				}
			});
			caller.start();
			await().atMost(Duration.ofSeconds(30)).until(() -> caller.getState() == Thread.State.TIMED_WAITING);
			long interrupted = System.nanoTime();
			caller.interrupt();
			RegistryException ex = failure.get(SLACK.toMillis(), TimeUnit.MILLISECONDS);
			assertThat(Duration.ofNanos(System.nanoTime() - interrupted)).isLessThan(SLACK);
			assertThat(ex).hasMessageContaining("Interrupted").hasCauseInstanceOf(InterruptedException.class);
			assertThat(ex.isRetryable()).isTrue();
			assertThat(stillInterrupted).as("the caller's interrupt status").isTrue();
		}
	}

	@Test
	void aClosedClientIsALastingFailure() {
		Client client = cluster.client();
		EtcdRegistry registry = EtcdRegistry.builder(client).keyPrefix("closed/").build();
		assertThat(registry.allocate(1, 1)).isZero();
		client.close();
		assertThatExceptionOfType(RegistryException.class).isThrownBy(() -> registry.allocate(1, 1))
			.satisfies((ex) -> assertThat(ex.isRetryable()).isFalse());
	}

}
