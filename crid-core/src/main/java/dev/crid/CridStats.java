package dev.crid;

import java.time.Duration;
import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * A snapshot of a node's state and history, for health checks and metrics. Taking one
 * never touches the registry and costs nothing on the path that hands out IDs.
 *
 * @param idsIssued IDs handed out since the node was built
 * @param idsLeftInBlock IDs left to hand out without asking the registry: in the block
 * being served, and set aside in the node's per-core stripes
 * @param nextBlockReady whether a prefetched block is waiting for the current one to run
 * out
 * @param prefetchThreshold IDs left in a block at which the next one is asked for, as the
 * node last set it from the rate it hands out IDs at and the registry's slowest recent
 * answers (never below the configured threshold); below 1 when prefetching is off
 * @param allocationSize how many sequence numbers the node asks the registry for at a
 * time: the configured block size, or up to 64 times it while blocks are used up faster
 * than the registry answers or in less than a quarter of a second
 * @param prefetchAllocations prefetches: reservations made in the background before the
 * current block ran out
 * @param synchronousAllocations synchronous reservations: registry calls made while
 * callers waited for a block
 * @param stalls calls to {@code nextId()} that had to wait for the registry
 * @param consecutiveFailures registry calls that failed since the last one that succeeded
 * @param lastAllocationTime when the registry last reserved a block for this node, or
 * {@code null}
 * @param lastFailureTime when a registry call last failed, or {@code null}
 * @param lastFailure the last registry failure, described down to its root cause, or
 * {@code null}
 * @param clockSkew how far the registry's clock was ahead of this node's (negative:
 * behind) at the last reservation, or {@code null} when the registry does not tell its
 * clock
 * @param estimatedClockSkew how far the registry's clock is ahead of this node's
 * (negative: behind) now, by estimate: {@code clockSkew} plus however far this node's
 * clock has moved since that measurement beyond the time elapsed on the monotonic clock
 * ({@link System#nanoTime()}). It shows a clock stepped back or forward before the next
 * reservation measures it, and is what that reservation will find unless the registry's
 * clock was stepped too (or the monotonic clock stood still, as it may while a machine
 * sleeps). {@code null} when {@code clockSkew} is {@code null}
 * @param registryWentBack blocks the registry handed out again that overlapped a block it
 * had given this node before for the same second (a restored backup, a failover to a
 * replica that lagged); each was refused, and the node moved on to the next second
 * @param lastRegistryWentBackTime when the registry last went back, or {@code null}
 * @param idsInStock IDs reserved ahead beyond the block being served: the next block, and
 * with a runway ({@link CridNode.Builder#runway}) the stock; a node that stops loses them
 * @param runway how long the IDs the node holds (left in its block, set aside, and
 * reserved ahead) last at the rate it has handed them out over its window (its runway, a
 * second at least and a minute at most; at least one ID per window): how long it could
 * serve without its registry
 * @param stuckCalls registry calls the node gave up on (they did not return within the
 * allocation timeout and a grace) that have still not returned: each holds a thread, and
 * the node carries on with fresh calls meanwhile; above zero, the registry or the network
 * to it hangs calls (a JDBC read without a socket timeout, say)
 */
public record CridStats(long idsIssued, long idsLeftInBlock, boolean nextBlockReady, long prefetchThreshold,
		long allocationSize, Allocations prefetchAllocations, Allocations synchronousAllocations, long stalls,
		long consecutiveFailures, @Nullable Instant lastAllocationTime, @Nullable Instant lastFailureTime,
		@Nullable String lastFailure, @Nullable Duration clockSkew, @Nullable Duration estimatedClockSkew,
		long registryWentBack, @Nullable Instant lastRegistryWentBackTime, long idsInStock, Duration runway,
		int stuckCalls) {

	/**
	 * Counts and total time of one kind of reservation, each one registry call.
	 *
	 * @param successes calls that reserved a block
	 * @param failures calls that failed
	 * @param totalTime time spent in all of them, successful or not
	 */
	public record Allocations(long successes, long failures, Duration totalTime) {

		/**
		 * Returns the number of calls, successful or not.
		 * @return successes plus failures
		 */
		public long count() {
			return this.successes + this.failures;
		}

	}

}
