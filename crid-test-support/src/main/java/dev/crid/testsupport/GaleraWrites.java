package dev.crid.testsupport;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.crid.CridNode;
import dev.crid.Registry;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Writes through every member of a {@link GaleraCluster} at once, the load of the tests
 * that show a registry repeats no ID there: one node on each registry the caller built on
 * the members, with blocks of 1 to 100 and no prefetching (so that the nodes reserve
 * often, and at once), two threads each, for a while; then every block the registries
 * handed out is checked against every other of its second, and every ID against every
 * other.
 */
public final class GaleraWrites {

	private static final long[] BLOCK_SIZES = { 1, 7, 100, 30 };

	private GaleraWrites() {
	}

	/**
	 * Runs the nodes and measures what they were handed.
	 * @param cluster the cluster the registries are on
	 * @param registries the registries, spread over the members
	 * @param duration how long the threads take IDs
	 * @return what they measured
	 * @throws Exception if the cluster cannot be asked, or the run is interrupted
	 */
	public static Outcome run(GaleraCluster cluster, List<? extends Registry> registries, Duration duration)
			throws Exception {
		List<RecordingRegistry> recorded = new ArrayList<>();
		List<CridNode> nodes = new ArrayList<>();
		List<IdIssuer> issuers = new ArrayList<>();
		try {
			for (Registry registry : registries) {
				RecordingRegistry recording = new RecordingRegistry(registry);
				recorded.add(recording);
				CridNode node = CridNode.builder(recording)
					.blockSize(BLOCK_SIZES[nodes.size() % BLOCK_SIZES.length])
					.threshold(0)
					.build();
				nodes.add(node);
				for (int t = 0; t < 2; t++) {
					issuers.add(new IdIssuer(node, 0));
				}
			}
			long certificationFailures = -cluster.certificationFailures();
			issuers.forEach(Thread::start);
			TimeUnit.MILLISECONDS.sleep(duration.toMillis());
			IdIssuer.stopAll(issuers);
			certificationFailures += cluster.certificationFailures();
			return new Outcome(recorded.stream().mapToLong((registry) -> registry.blocks().size()).sum(),
					RecordingRegistry.overlaps(recorded), issuers.stream().mapToLong(IdIssuer::count).sum(),
					IdIssuer.repeatedIds(issuers), issuers.stream().mapToLong(IdIssuer::failures).sum(),
					certificationFailures);
		}
		finally {
			IdIssuer.stopAll(issuers);
			nodes.forEach(CridNode::close);
		}
	}

	/**
	 * What a run measured.
	 *
	 * @param blocks the blocks the registries handed out
	 * @param overlaps the blocks that overlap another of their second
	 * @param ids the IDs the threads took
	 * @param repeated the IDs taken more than once
	 * @param failures the calls to {@code nextId()} that failed
	 * @param certificationFailures the transactions the members rolled back because
	 * another member's had written the same row first
	 */
	public record Outcome(long blocks, long overlaps, long ids, long repeated, long failures,
			long certificationFailures) {

		/**
		 * Asserts that no block overlapped another and no ID repeated, in a run that
		 * reserved more than {@code minimumBlocks} blocks and lost races to other members
		 * (so that there was something to repeat).
		 * @param minimumBlocks the blocks the run must have exceeded
		 */
		public void assertNothingRepeated(long minimumBlocks) {
			assertThat(this.blocks).as("blocks reserved").isGreaterThan(minimumBlocks);
			assertThat(this.certificationFailures).as("reservations that lost a race to another member's").isPositive();
			assertThat(this.overlaps).as("blocks overlapping another of their second").isZero();
			assertThat(this.repeated).as("IDs issued twice").isZero();
		}

		@Override
		public String toString() {
			return String.format(
					"%,d blocks, %d overlapping; %,d IDs, %d repeated; %d failed calls; "
							+ "%,d certification failures",
					this.blocks, this.overlaps, this.ids, this.repeated, this.failures, this.certificationFailures);
		}

	}

}
