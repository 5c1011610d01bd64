package dev.crid.benchmarks;

import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import com.github.f4b6a3.uuid.UuidCreator;
import dev.crid.CridNode;
import io.hypersistence.tsid.TSID;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One ID per call from {@link CridNode#nextId()} and from the generators users would
 * otherwise pick, at full speed, all measured in the same run:
 * <ul>
 * <li>{@code crid}: a node with the default block size and threshold, on the in-memory
 * registry and on the PostgreSQL registry (parameter {@code registry}), with its stalls
 * and synchronous reservations as secondary results;</li>
 * <li>{@code atomicLong}: {@link AtomicLong#getAndIncrement()} on one counter shared by
 * all benchmark threads, the floor of any generator that hands out numbers from one
 * shared counter;</li>
 * <li>{@code randomUuid}: {@link UUID#randomUUID()};</li>
 * <li>{@code uuidV7}: a time-ordered UUID version 7 from uuid-creator;</li>
 * <li>{@code tsid}: a TSID from the default hypersistence-tsid factory;</li>
 * <li>{@code cosIdSegmentChain}: CosId's {@code SegmentChainId} on its in-memory segment
 * distributor.</li>
 * </ul>
 * Run it with {@code -t 1} and {@code -t 2}; with more threads than cores the figures
 * measure the scheduler.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
public class NextIdBenchmark {

	/**
	 * {@link CridNode#nextId()}.
	 * @param node the node under test
	 * @param counters where the node's stalls are reported
	 * @return the ID
	 */
	@Benchmark
	public long crid(CridNodeState node, AllocationCounters counters) {
		return node.node().nextId();
	}

	/**
	 * {@link AtomicLong#getAndIncrement()} on one counter shared by every thread.
	 * @param counter the shared counter
	 * @return the number
	 */
	@Benchmark
	public long atomicLong(SharedCounter counter) {
		return counter.next();
	}

	/**
	 * {@link UUID#randomUUID()}.
	 * @return the UUID
	 */
	@Benchmark
	public UUID randomUuid() {
		return UUID.randomUUID();
	}

	/**
	 * A time-ordered UUID version 7.
	 * @return the UUID
	 */
	@Benchmark
	public UUID uuidV7() {
		return UuidCreator.getTimeOrderedEpoch();
	}

	/**
	 * A TSID from the default factory, as a {@code long}.
	 * @return the TSID
	 */
	@Benchmark
	public long tsid() {
		return TSID.Factory.getTsid().toLong();
	}

	/**
	 * CosId's {@code SegmentChainId}.
	 * @param cosId the generator
	 * @return the ID
	 */
	@Benchmark
	public long cosIdSegmentChain(CosIdState cosId) {
		return cosId.generate();
	}

}
