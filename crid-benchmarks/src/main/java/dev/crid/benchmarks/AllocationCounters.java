package dev.crid.benchmarks;

import dev.crid.CridNode;
import dev.crid.CridStats;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * Reports, as secondary JMH results, how often the node under test made a caller wait
 * during each iteration: {@code stalls} counts calls to {@link CridNode#nextId()} that
 * found the block exhausted with no successor ready, {@code synchronousAllocations} the
 * registry calls made because of them (a stall that waits for a prefetch already in
 * flight makes none). The counts are node-wide, so only the first benchmark thread
 * reports them.
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.EVENTS)
public class AllocationCounters {

	/** Stalls in this iteration. */
	public long stalls;

	/** Synchronous reservations in this iteration. */
	public long synchronousAllocations;

	private long stallsBefore;

	private long synchronousAllocationsBefore;

	/**
	 * Remembers the node's counters as the iteration starts.
	 * @param state the node under test
	 */
	@Setup(Level.Iteration)
	public void start(CridNodeState state) {
		CridStats stats = state.node().stats();
		this.stalls = 0;
		this.synchronousAllocations = 0;
		this.stallsBefore = stats.stalls();
		this.synchronousAllocationsBefore = stats.synchronousAllocations().count();
	}

	/**
	 * Reports what changed during the iteration, from the first thread only.
	 * @param state the node under test
	 * @param thread which benchmark thread this is
	 */
	@TearDown(Level.Iteration)
	public void finish(CridNodeState state, ThreadParams thread) {
		if (thread.getThreadIndex() == 0) {
			CridStats stats = state.node().stats();
			this.stalls = stats.stalls() - this.stallsBefore;
			this.synchronousAllocations = stats.synchronousAllocations().count() - this.synchronousAllocationsBefore;
		}
	}

}
