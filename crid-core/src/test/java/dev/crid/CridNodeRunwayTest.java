package dev.crid;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Tests that a node with a runway keeps the IDs in stock to serve that long without its
 * registry, tops the stock up in few large calls at its measured rate, and never hands
 * out an ID twice.
 */
class CridNodeRunwayTest {

	private static final Duration AWAIT = Duration.ofSeconds(10);

	private final MutableClock clock = new MutableClock(CridLayout.DEFAULT_EPOCH.plusSeconds(500));

	private final RecordingRegistry registry = new RecordingRegistry(new InMemoryRegistry());

	@Test
	void servesItsWholeStockWhileTheRegistryIsDownAndNoMore() {
		// Before the node has measured a rate, it assumes its block size per second: a
		// runway of 10 s is 10,000 IDs here, and it holds a block more, reserved in one
		// call.
		try (CridNode node = node().blockSize(1_000)
			.threshold(500)
			.runway(Duration.ofSeconds(10))
			.allocationTimeout(Duration.ofMillis(300))
			.build()) {
			node.warmUp();
			assertThat(this.registry.calls()).singleElement()
				.satisfies((call) -> assertThat(call.blockSize()).isEqualTo(11_000));
			assertThat(node.stats().runway()).isBetween(Duration.ofSeconds(10), Duration.ofSeconds(11));
			this.registry.otherwise(RecordingRegistry.Answer.fail(new RegistryException("Connection refused")));
			Set<Long> ids = new HashSet<>();
			for (int i = 0; i < 11_000; i++) {
				assertThat(ids.add(node.nextId())).isTrue();
			}
			assertThat(node.stats().stalls()).isZero();
			assertThatExceptionOfType(RegistryException.class).isThrownBy(node::nextId)
				.withMessageContaining("Connection refused");
			assertThat(node.stats().runway()).isEqualTo(Duration.ZERO);
		}
	}

	@Test
	void withoutARunwayTheNodeHoldsOnlyItsNextBlock() {
		try (CridNode node = node().blockSize(1_000).threshold(500).allocationTimeout(Duration.ofMillis(300)).build()) {
			node.warmUp();
			assertThat(this.registry.calls()).singleElement()
				.satisfies((call) -> assertThat(call.blockSize()).isEqualTo(1_000));
			this.registry.otherwise(RecordingRegistry.Answer.fail(new RegistryException("Connection refused")));
			for (int i = 0; i < 1_000; i++) {
				node.nextId();
			}
			assertThatExceptionOfType(RegistryException.class).isThrownBy(node::nextId);
		}
	}

	@Test
	void topsTheStockUpAtTheMeasuredRateInFewLargeCalls() {
		SteppedTiming timing = new SteppedTiming();
		CridNode node = new CridNode(node().blockSize(1_000)
			.threshold(500)
			.runway(Duration.ofSeconds(10))
			.build()
			.settings()
			.with(timing, NodeSettings.IDLE_THREAD_TIMEOUT, false));
		try (node) {
			node.warmUp();
			long stallsAfterWarmUp = 0;
			int callsAfterWarmUp = 0;
			for (int second = 1; second <= 30; second++) { // 50,000 IDs a second, by the
															// node's clock
				for (int i = 0; i < 50_000; i++) {
					node.nextId();
				}
				timing.advance(Duration.ofSeconds(1));
				if (second == 5) {
					stallsAfterWarmUp = node.stats().stalls();
					callsAfterWarmUp = this.registry.calls().size();
				}
				if (second >= 5) {
					// Ten seconds at the rate measured (less a little: the rate moves
					// between two checks), and at most a quarter more and two blocks (the
					// one served and one beyond the target, each up to 64,000 IDs, 1.3 s
					// here): 15.1 s, and a little for the rate's moves
					await().atMost(AWAIT).until(() -> node.stats().runway().compareTo(Duration.ofMillis(9_800)) >= 0);
					if (second >= 10) { // once what it reserved while it learnt the rate
										// is used up
						assertThat(node.stats().runway()).isLessThan(Duration.ofMillis(16_500));
					}
				}
			}
			assertThat(node.stats().stalls()).isEqualTo(stallsAfterWarmUp);
			List<RecordingRegistry.Call> calls = this.registry.calls();
			List<RecordingRegistry.Call> steady = calls.subList(callsAfterWarmUp, calls.size());
			// 1,250,000 IDs in the 25 steady seconds (some from what it reserved while it
			// learnt the rate), in calls of at least a quarter of the 500,000 target: at
			// the largest blocks without a runway, 20 calls
			assertThat(steady).hasSizeBetween(4, 14)
				.allSatisfy((call) -> assertThat(call.blockSize()).isGreaterThanOrEqualTo(100_000));
		}
	}

	@Test
	void nodesWithRunwaysOnOneRegistryNeverRepeatAnId() throws Exception {
		InMemoryRegistry shared = new InMemoryRegistry();
		List<CridNode> nodes = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			nodes.add(CridNode.builder(shared)
				.clock(this.clock)
				.blockSize(10)
				.threshold(5)
				.runway(Duration.ofMillis(200))
				.build());
		}
		Set<Long> ids = ConcurrentHashMap.newKeySet();
		ExecutorService threads = Executors.newFixedThreadPool(6);
		CountDownLatch start = new CountDownLatch(1);
		try {
			List<Future<Integer>> results = new ArrayList<>();
			for (int t = 0; t < 6; t++) {
				CridNode node = nodes.get(t % nodes.size());
				results.add(threads.submit(() -> {
					start.await();
					int duplicates = 0;
					for (int i = 0; i < 20_000; i++) {
						if (!ids.add(node.nextId())) {
							duplicates++;
						}
					}
					return duplicates;
				}));
			}
			start.countDown();
			for (Future<Integer> result : results) {
				assertThat(result.get()).isZero();
			}
			assertThat(ids).hasSize(120_000);
		}
		finally {
			threads.shutdownNow();
			nodes.forEach(CridNode::close);
		}
	}

	@Test
	void closingLosesTheStockAndStopsServing() {
		CridNode node = node().blockSize(1_000).threshold(500).runway(Duration.ofSeconds(10)).build();
		node.warmUp();
		assertThat(node.stats().idsInStock()).isEqualTo(11_000);
		node.close();
		assertThat(node.stats().idsInStock()).isZero();
		assertThatExceptionOfType(NodeClosedException.class).isThrownBy(node::nextId);
		assertThat(this.registry.calls()).hasSize(1);
	}

	private CridNode.Builder node() {
		return CridNode.builder(this.registry).clock(this.clock);
	}

}
