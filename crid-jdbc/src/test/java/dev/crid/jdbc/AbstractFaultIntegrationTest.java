package dev.crid.jdbc;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every network fault between nodes and the JDBC registry's database: the outages of
 * {@link AbstractJdbcFaultIntegrationTest}, and links that flap or are slow, which must
 * cost callers delays, never errors: a slow link costs a caller no more than
 * {@value #SLOW_LINK_LONGEST_CALL_MILLIS} ms. One short subclass per database.
 */
public abstract class AbstractFaultIntegrationTest extends AbstractJdbcFaultIntegrationTest {

	/**
	 * The longest call with 20 ms of latency: a node reserves ahead (at half its block),
	 * so a caller waits only when a block runs out before the next one arrived, for what
	 * is left of a reservation of a few round trips (measured 30 to 170 ms on two cores);
	 * the rest is room for a loaded machine. A node that waited for a reservation on
	 * every block, or retried, would take longer.
	 */
	private static final long SLOW_LINK_LONGEST_CALL_MILLIS = 250;

	private static final Duration SLOW_LINK_LONGEST_CALL = Duration.ofMillis(SLOW_LINK_LONGEST_CALL_MILLIS);

	@Test
	void aFlappingLinkCostsCallersDelaysNotErrors() throws Exception {
		Result result = run("flap", (proxy, route) -> {
			for (int i = 0; i < 3; i++) {
				proxy.cut();
				hold(Duration.ofSeconds(1));
				proxy.heal();
				hold(Duration.ofSeconds(1));
			}
		});
		result.assertNoCallHung();
		assertThat(result.failures()).as("failed calls while the link flapped (outages of 1 s, below the timeout)")
			.isZero();
		result.assertFlowingAgainWithin(RECOVERY);
	}

	@Test
	void latencyCostsCallersNothing() throws Exception {
		Result result = run("latency 20 ms", (proxy, route) -> {
			proxy.latency(Duration.ofMillis(20));
			hold(Duration.ofSeconds(4));
			proxy.latency(Duration.ZERO);
		});
		assertThat(result.longestCall()).as("longest call with 20 ms of latency")
			.isLessThanOrEqualTo(SLOW_LINK_LONGEST_CALL);
		assertThat(result.failures()).as("failed calls with 20 ms of latency").isZero();
		assertThat(result.idsDuringFault()).as("IDs issued while the link was slow").isPositive();
	}

}
