package dev.crid.etcd;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.kv.GetResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.crid.CridLayout;
import dev.crid.LayoutMismatchException;
import dev.crid.RegistryException;
import dev.crid.testsupport.EtcdCluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * {@link EtcdRegistry} on a 3-member cluster of its own: what its keys hold, blocks under
 * contention from several registries on different members, the layout check, and eviction
 * with its guard. Each test has a key prefix of its own.
 */
class EtcdRegistryIntegrationTest {

	private static final AtomicInteger prefixes = new AtomicInteger();

	private static EtcdCluster cluster;

	/** One client per member, as separate processes would have. */
	private static final List<Client> clients = new ArrayList<>();

	@BeforeAll
	static void startCluster() throws Exception {
		cluster = EtcdCluster.start();
		for (int member = 0; member < 3; member++) {
			clients.add(cluster.client(member));
		}
	}

	@AfterAll
	static void stopCluster() throws Exception {
		clients.forEach(Client::close);
		if (cluster != null) {
			cluster.close();
		}
	}

	@Test
	void eachSecondIsOneKeyHoldingNextSeqInDecimal() throws Exception {
		String prefix = prefix();
		EtcdRegistry registry = registry(prefix, 0);
		registry.allocate(7, 100);
		registry.allocate(7, 23);
		registry.allocate(12_345_678_901L, 5);
		assertThat(read(prefix + "seconds/0000000000000000007")).isEqualTo("123");
		assertThat(read(prefix + "seconds/0000000012345678901")).isEqualTo("5");
		GetResponse all = clients.get(1)
			.getKVClient()
			.get(bytes(prefix), io.etcd.jetcd.options.GetOption.builder().isPrefix(true).build())
			.get(10, TimeUnit.SECONDS);
		assertThat(all.getKvs()).as("keys under the prefix").hasSize(2);
	}

	@Test
	void registriesOnDifferentMembersWithManyThreadsGetBlocksThatTileEachSecond() throws Exception {
		String prefix = prefix();
		List<EtcdRegistry> registries = List.of(registry(prefix, 0), registry(prefix, 1), registry(prefix, 2));
		int threadsPerRegistry = 4;
		int perThread = 30;
		long[] seconds = { 100, 101 };
		ExecutorService executor = Executors.newFixedThreadPool(registries.size() * threadsPerRegistry);
		CountDownLatch start = new CountDownLatch(1);
		List<Future<List<long[]>>> futures = new ArrayList<>();
		for (EtcdRegistry registry : registries) {
			for (int t = 0; t < threadsPerRegistry; t++) {
				futures.add(executor.submit(() -> {
					List<long[]> blocks = new ArrayList<>();
					start.await();
					for (int i = 0; i < perThread; i++) {
						long second = seconds[i % seconds.length];
						long size = ThreadLocalRandom.current().nextLong(1, 11);
						blocks.add(new long[] { second, registry.allocate(second, size), size });
					}
					return blocks;
				}));
			}
		}
		start.countDown();
		List<long[]> blocks = new ArrayList<>();
		for (Future<List<long[]>> future : futures) {
			blocks.addAll(future.get(60, TimeUnit.SECONDS));
		}
		executor.shutdown();
		assertThat(blocks).hasSize(registries.size() * threadsPerRegistry * perThread);
		for (long second : seconds) {
			List<long[]> ofSecond = new ArrayList<>(blocks.stream().filter((block) -> block[0] == second).toList());
			ofSecond.sort(Comparator.comparingLong((block) -> block[1]));
			long expectedStart = 0;
			for (long[] block : ofSecond) {
				assertThat(block[1]).as("second %d: start of the block after [0, %d)", second, expectedStart)
					.isEqualTo(expectedStart);
				expectedStart += block[2];
			}
			assertThat(read(prefix + String.format("seconds/%019d", second))).isEqualTo(Long.toString(expectedStart));
		}
	}

	@Test
	void theFirstLayoutIsRecordedAndAnotherIsRefusedByEveryRegistry() throws Exception {
		String prefix = prefix();
		CridLayout first = CridLayout.DEFAULT;
		CridLayout other = CridLayout.of(Instant.parse("2025-01-01T00:00:00Z"), 41, 22);
		registry(prefix, 0).checkLayout(first);
		assertThat(read(prefix + "layout")).isEqualTo("epoch=2026-01-01T00:00:00Z timestampBits=31 sequenceBits=32");
		registry(prefix, 1).checkLayout(first);
		for (int member = 0; member < 3; member++) {
			EtcdRegistry registry = registry(prefix, member);
			assertThatExceptionOfType(LayoutMismatchException.class).isThrownBy(() -> registry.checkLayout(other))
				.satisfies((ex) -> assertThat(ex.isRetryable()).isFalse())
				.satisfies((ex) -> assertThat(ex.registryLayout()).isEqualTo(first))
				.withMessageContaining(prefix);
		}
		assertThat(read(prefix + "layout")).as("the record is unchanged").contains("sequenceBits=32");
	}

	@Test
	void aLayoutKeyCridDidNotWriteIsALastingFailure() throws Exception {
		String prefix = prefix();
		write(prefix + "layout", "something else");
		assertThatExceptionOfType(RegistryException.class)
			.isThrownBy(() -> registry(prefix, 0).checkLayout(CridLayout.DEFAULT))
			.satisfies((ex) -> assertThat(ex.isRetryable()).isFalse())
			.withMessageContaining(prefix + "layout")
			.withMessageContaining("something else");
	}

	@Test
	void aSecondKeyCridDidNotWriteIsALastingFailure() throws Exception {
		String prefix = prefix();
		write(prefix + "seconds/0000000000000000042", "forty-two");
		assertThatExceptionOfType(RegistryException.class).isThrownBy(() -> registry(prefix, 0).allocate(42, 1))
			.satisfies((ex) -> assertThat(ex.isRetryable()).isFalse())
			.withMessageContaining("forty-two");
	}

	@Test
	void anEvictedSecondIsRefusedByEveryRegistryAndLaterSecondsGoOn() throws Exception {
		String prefix = prefix();
		EtcdRegistry evicting = registry(prefix, 0);
		EtcdRegistry elsewhere = registry(prefix, 2);
		for (long second = 10; second < 20; second++) {
			evicting.allocate(second, 10);
		}
		// The other registry has seen the watermark before the eviction.
		assertThat(elsewhere.allocate(15, 1)).isEqualTo(10);
		assertThat(evicting.evictBefore(15)).as("keys deleted").isEqualTo(5);
		assertThat(read(prefix + "evicted-before")).isEqualTo("15");
		assertThat(read(prefix + "seconds/0000000000000000014")).isNull();
		for (EtcdRegistry registry : List.of(evicting, registry(prefix, 1), elsewhere)) {
			assertThatExceptionOfType(RegistryException.class).isThrownBy(() -> registry.allocate(14, 1))
				.satisfies((ex) -> assertThat(ex.isRetryable()).isFalse())
				.withMessageContaining("every second before 15 was evicted");
		}
		assertThat(read(prefix + "seconds/0000000000000000014")).as("no refused reservation wrote").isNull();
		assertThat(elsewhere.allocate(15, 1)).isEqualTo(11);
		assertThat(registry(prefix, 1).allocate(19, 1)).isEqualTo(10);
		assertThat(evicting.evictBefore(12)).as("a lower watermark evicts nothing").isZero();
		assertThat(read(prefix + "evicted-before")).isEqualTo("15");
	}

	/**
	 * Threads on every member reserve in one second while it is evicted, and on after it,
	 * half of them through a new registry at each call, which has seen neither the second
	 * nor the watermark: none may start the second over once its key is gone.
	 */
	@Test
	void reservationsRacingAnEvictionNeverStartTheirSecondOver() throws Exception {
		String prefix = prefix();
		long second = 500;
		ExecutorService executor = Executors.newFixedThreadPool(6);
		CountDownLatch reserving = new CountDownLatch(6);
		AtomicBoolean evicted = new AtomicBoolean();
		List<Future<List<long[]>>> futures = new ArrayList<>();
		for (int t = 0; t < 6; t++) {
			int member = t % 3;
			boolean newRegistryEachCall = t < 3;
			EtcdRegistry kept = registry(prefix, member);
			futures.add(executor.submit(() -> {
				List<long[]> blocks = new ArrayList<>();
				reserving.countDown();
				int refusedAfterEviction = 0;
				while (refusedAfterEviction < 5) {
					EtcdRegistry registry = newRegistryEachCall ? registry(prefix, member) : kept;
					try {
						blocks.add(new long[] { registry.allocate(second, 3), 3 });
					}
					catch (RegistryException ex) {
						if (!ex.isRetryable() && evicted.get()) {
							refusedAfterEviction++;
						}
					}
				}
				return blocks;
			}));
		}
		reserving.await();
		await().atMost(Duration.ofSeconds(30)).until(() -> Long.parseLong(valueOr(prefix, second)) >= 150);
		long deleted = registry(prefix, 1).evictBefore(second + 1);
		evicted.set(true);
		List<long[]> blocks = new ArrayList<>();
		for (Future<List<long[]>> future : futures) {
			blocks.addAll(future.get(60, TimeUnit.SECONDS));
		}
		executor.shutdown();
		assertThat(deleted).isEqualTo(1);
		assertThat(read(prefix + String.format("seconds/%019d", second)))
			.as("the evicted second's key, which a reservation after the eviction would have made again")
			.isNull();
		blocks.sort(Comparator.comparingLong((block) -> block[0]));
		long expectedStart = 0;
		for (long[] block : blocks) {
			assertThat(block[0]).as("start of the block after [0, %d)", expectedStart).isEqualTo(expectedStart);
			expectedStart += block[1];
		}
		assertThat(blocks).hasSizeGreaterThanOrEqualTo(50);
	}

	@Test
	void secondsOlderThanTheRetentionAreEvictedByTheRegistryItself() throws Exception {
		String prefix = prefix();
		EtcdRegistry registry = EtcdRegistry.builder(clients.get(0))
			.keyPrefix(prefix)
			.retention(Duration.ofSeconds(5))
			.build();
		registry.allocate(1_000, 1);
		registry.allocate(1_004, 1);
		// Reserving in second 1,006 evicts what is older than 1,001, once the interval
		// (a second here) has passed.
		await().atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(200))
			.until(() -> registry.allocate(1_006, 1) >= 0 && read(prefix + "seconds/0000000000000001000") == null);
		assertThat(read(prefix + "evicted-before")).isEqualTo("1001");
		assertThat(read(prefix + "seconds/0000000000000001004")).isEqualTo("1");
		assertThatExceptionOfType(RegistryException.class).isThrownBy(() -> registry.allocate(1_000, 1))
			.satisfies((ex) -> assertThat(ex.isRetryable()).isFalse());
	}

	@Test
	void tellsItsKindAndDetailsAndPassesItsCheck() {
		String prefix = prefix();
		EtcdRegistry registry = registry(prefix, 1);
		assertThat(registry.kind()).isEqualTo("etcd");
		assertThat(registry.details()).containsEntry("keyPrefix", prefix)
			.containsEntry("timeout", EtcdRegistry.DEFAULT_TIMEOUT)
			.containsEntry("retention", EtcdRegistry.DEFAULT_RETENTION);
		assertThat(registry.answersFromMemory()).isFalse();
		assertThat(registry.check()).isTrue();
	}

	private static String prefix() {
		return "test-" + prefixes.incrementAndGet() + "-" + System.nanoTime() + "/";
	}

	private static EtcdRegistry registry(String prefix, int member) {
		return EtcdRegistry.builder(clients.get(member)).keyPrefix(prefix).build();
	}

	private static String valueOr(String prefix, long second) throws Exception {
		String value = read(prefix + String.format("seconds/%019d", second));
		return (value != null) ? value : "0";
	}

	private static String read(String key) throws Exception {
		GetResponse response = clients.get(1).getKVClient().get(bytes(key)).get(10, TimeUnit.SECONDS);
		return response.getKvs().isEmpty() ? null
				: response.getKvs().get(0).getValue().toString(StandardCharsets.UTF_8);
	}

	private static void write(String key, String value) throws Exception {
		clients.get(1).getKVClient().put(bytes(key), bytes(value)).get(10, TimeUnit.SECONDS);
	}

	private static ByteSequence bytes(String text) {
		return ByteSequence.from(text, StandardCharsets.UTF_8);
	}

}
