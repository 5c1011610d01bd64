package dev.crid.benchmarks;

import me.ahoo.cosid.segment.IdSegment;
import me.ahoo.cosid.segment.IdSegmentDistributor;
import me.ahoo.cosid.segment.SegmentChainId;
import me.ahoo.cosid.segment.concurrent.PrefetchWorkerExecutorService;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * CosId's {@code SegmentChainId}, set up as CosId's own JMH benchmark sets it up:
 * segments that never expire, a safe distance of 10 segments, the in-memory mock
 * distributor with its default step, and the shared default prefetch worker.
 */
@State(Scope.Benchmark)
public class CosIdState {

	private static final int SAFE_DISTANCE = 10;

	private SegmentChainId segmentChainId;

	/**
	 * Builds the generator.
	 */
	@Setup
	public void start() {
		this.segmentChainId = new SegmentChainId(IdSegment.TIME_TO_LIVE_FOREVER, SAFE_DISTANCE,
				new IdSegmentDistributor.Mock(), PrefetchWorkerExecutorService.DEFAULT);
	}

	/**
	 * Returns the next ID.
	 * @return the ID
	 */
	public long generate() {
		return this.segmentChainId.generate();
	}

}
