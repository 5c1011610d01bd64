package dev.crid;

import java.time.Duration;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests that registry calls that never return cannot wedge a node: each is given up on
 * once it has not returned within the allocation timeout and a grace, the node carries on
 * with a fresh call on a thread of its own, and the calls it is stuck on show in its
 * statistics.
 */
class CridNodeStuckCallTest {

	private static final Duration AWAIT = Duration.ofSeconds(30);

	private static final Duration TIMEOUT = Duration.ofMillis(200);

	private final MutableClock clock = new MutableClock(CridLayout.DEFAULT_EPOCH.plusSeconds(500));

	private final RecordingRegistry registry = new RecordingRegistry(new InMemoryRegistry());

	@Test
	void noNumberOfCallsThatNeverReturnWedgesTheNode() {
		Hung hung = new Hung();
		int hungCalls = 3;
		for (int i = 0; i < hungCalls; i++) {
			this.registry.then(hung);
		}
		Set<Thread> before = NodeThreads.now();
		CridNode node = CridNode.builder(this.registry).clock(this.clock).allocationTimeout(TIMEOUT).build();
		try {
			int failedCallers = 0;
			long id = -1;
			long giveUpAt = System.nanoTime() + AWAIT.toNanos();
			while (id < 0 && System.nanoTime() - giveUpAt < 0) {
				try {
					id = node.nextId();
				}
				catch (RegistryException ex) {
					failedCallers++;
				}
			}
			assertThat(id).as("an ID once the registry answered again").isNotNegative();
			assertThat(hung.entered()).isEqualTo(hungCalls);
			// Each call that never returns costs callers its timeout and grace, two
			// timeouts here: two failed callers each, and one whose wait straddles.
			assertThat(failedCallers).isBetween(hungCalls, 2 * hungCalls + 2);
			assertThat(node.stats().stuckCalls()).as("calls given up on, still out").isEqualTo(hungCalls);
			assertThat(NodeThreads.startedSince(before)).as("threads of the node, one per hung call and one more")
				.hasSizeBetween(hungCalls, hungCalls + 1);
			for (int i = 0; i < 1_000; i++) {
				node.nextId();
			}
			hung.release();
			await().atMost(AWAIT).until(() -> node.stats().stuckCalls() == 0);
		}
		finally {
			hung.release();
			node.close();
		}
	}

	@Test
	void closeReturnsWithinASecondWhileARegistryCallHangsWhateverTheAllocationTimeout() throws Exception {
		Hung hung = new Hung();
		this.registry.then(Registry::allocate).then(hung);
		CridNode node = CridNode.builder(this.registry)
			.clock(this.clock)
			.blockSize(100)
			.threshold(50)
			.allocationTimeout(Duration.ofMinutes(10))
			.build();
		try {
			for (int i = 0; i < 60; i++) {
				node.nextId(); // passes the trigger: the prefetch starts and hangs
			}
			await().atMost(AWAIT).until(() -> hung.entered() == 1);
			long closing = System.nanoTime();
			node.close();
			// close() waits a second at most for the calls under way and the node's
			// threads, never the allocation timeout (ten minutes here); it waits that
			// second in full, since the call is deaf to its interrupt.
			assertThat(Duration.ofNanos(System.nanoTime() - closing)).isBetween(Duration.ofMillis(990),
					Duration.ofSeconds(10));
			assertThat(node.isClosed()).isTrue();
		}
		finally {
			hung.release();
		}
	}

}
