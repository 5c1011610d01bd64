package dev.crid;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * What a node counts about its registry calls. Written only on the slow paths, so handing
 * out IDs pays nothing for it; its own monitor guards it, so the reserver may record what
 * it learns without the node's lock.
 */
final class NodeStatistics {

	private final Clock clock;

	private final Counts prefetch = new Counts();

	private final Counts synchronous = new Counts();

	private long stalls;

	private long consecutiveFailures;

	private @Nullable Instant lastAllocationTime;

	private @Nullable Instant lastFailureTime;

	private @Nullable String lastFailure;

	private @Nullable Duration clockSkew;

	/** This node's clock, and the monotonic clock, when the skew was last measured. */
	private @Nullable Instant skewMeasuredAt;

	private long skewMeasuredNanos;

	private long registryWentBack;

	private @Nullable Instant lastRegistryWentBackTime;

	private final Timing timing;

	NodeStatistics(Clock clock, Timing timing) {
		this.clock = clock;
		this.timing = timing;
	}

	/**
	 * Records a success and returns how many calls in a row had failed before it.
	 */
	synchronized long succeeded(boolean prefetched, long nanos) {
		Counts counts = counts(prefetched);
		counts.successes++;
		counts.nanos += nanos;
		long failedBefore = this.consecutiveFailures;
		this.consecutiveFailures = 0;
		this.lastAllocationTime = now();
		return failedBefore;
	}

	/**
	 * Records a failure and returns how many calls in a row have now failed.
	 */
	synchronized long failed(boolean prefetched, long nanos, Throwable failure) {
		Counts counts = counts(prefetched);
		counts.failures++;
		counts.nanos += nanos;
		this.lastFailureTime = now();
		this.lastFailure = describe(failure);
		return ++this.consecutiveFailures;
	}

	synchronized void stalled() {
		this.stalls++;
	}

	/**
	 * Records the skew measured at a reservation, with this node's clock reading and the
	 * monotonic clock's at the same moment (the middle of the call), so that a later
	 * snapshot can tell how far the node's clock has moved since.
	 */
	synchronized void clockSkew(Duration skew, Instant measuredAt, long measuredNanos) {
		this.clockSkew = skew;
		this.skewMeasuredAt = measuredAt;
		this.skewMeasuredNanos = measuredNanos;
	}

	/**
	 * The skew as it must be now: the registry's clock is taken to have run at the
	 * monotonic clock's rate since the measurement, so whatever this node's clock moved
	 * beyond that (a step back or forward, a fixed clock standing still) is added to the
	 * skew measured.
	 */
	private @Nullable Duration estimatedClockSkew() {
		if (this.clockSkew == null) {
			return null;
		}
		Duration monotonic = Duration.ofNanos(this.timing.nanoTime() - this.skewMeasuredNanos);
		Duration nodeClock = Duration.between(this.skewMeasuredAt, now());
		return this.clockSkew.plus(monotonic).minus(nodeClock);
	}

	synchronized void registryWentBack() {
		this.registryWentBack++;
		this.lastRegistryWentBackTime = now();
	}

	// Called while a reservation is being finished: a clock that throws (the failure
	// being recorded may well be the clock's) must not stop the reservation from
	// completing, so fall back to the system clock.
	private Instant now() {
		try {
			return this.clock.instant();
		}
		catch (RuntimeException ex) {
			return Instant.now();
		}
	}

	private Counts counts(boolean prefetched) {
		return prefetched ? this.prefetch : this.synchronous;
	}

	synchronized CridStats snapshot(long idsIssued, long idsLeftInBlock, boolean nextBlockReady, long prefetchThreshold,
			long allocationSize, long idsInStock, Duration runway, int stuckCalls) {
		return new CridStats(idsIssued, idsLeftInBlock, nextBlockReady, prefetchThreshold, allocationSize,
				this.prefetch.snapshot(), this.synchronous.snapshot(), this.stalls, this.consecutiveFailures,
				this.lastAllocationTime, this.lastFailureTime, this.lastFailure, this.clockSkew, estimatedClockSkew(),
				this.registryWentBack, this.lastRegistryWentBackTime, idsInStock, runway, stuckCalls);
	}

	/**
	 * Describes a failure with its chain of causes, so the root cause (the driver's
	 * "connection refused", a timeout, a refused login) is always named.
	 */
	static String describe(Throwable failure) {
		StringBuilder text = new StringBuilder(String.valueOf(failure));
		// Causes can form a cycle longer than one (a.initCause(b), b.initCause(a)): stop
		// at the first repeat.
		Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
		seen.add(failure);
		for (Throwable cause = failure.getCause(); cause != null && seen.add(cause); cause = cause.getCause()) {
			text.append("; caused by ").append(cause);
		}
		return text.toString();
	}

	private static final class Counts {

		long successes;

		long failures;

		long nanos;

		CridStats.Allocations snapshot() {
			return new CridStats.Allocations(this.successes, this.failures, Duration.ofNanos(this.nanos));
		}

	}

}
