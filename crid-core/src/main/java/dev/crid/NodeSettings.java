package dev.crid;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

import dev.crid.InvalidConfigException.Violation;

import org.jspecify.annotations.Nullable;

/**
 * A node's settings, checked: what {@link CridNode.Builder#build()} hands to the node's
 * parts. Every rule a setting must meet is checked in {@link #check}, and every violated
 * rule is reported at once.
 *
 * @param registry the registry blocks are reserved in
 * @param layout the layout of the node's IDs
 * @param blockSize sequence numbers per registry call, as configured
 * @param threshold IDs left in a block below which the next is reserved; below 1 for
 * never
 * @param allocationTimeout how long a caller waits for a block at most
 * @param clock the clock timestamps come from
 * @param prefetchExecutor the executor given to the builder, or {@code null} for the
 * node's own threads
 * @param maxClockSkew how far the node's clock may be from the registry's
 * @param prefetchFailureHandler told of failed background reservations, or {@code null}
 * @param runway how long the IDs the node keeps in stock should last at its measured
 * rate; zero for no stock
 * @param idleThreadTimeout how long the node's own threads stay alive with nothing to do
 * @param callerRunsReservations whether a caller runs a reservation it finds queued and
 * not started itself: only for registries that answer from memory and cannot hold a
 * caller up
 * @param timing the monotonic clock and the waits of the slow paths
 */
record NodeSettings(Registry registry, CridLayout layout, long blockSize, long threshold, Duration allocationTimeout,
		Clock clock, @Nullable Executor prefetchExecutor, Duration maxClockSkew,
		@Nullable Consumer<? super RuntimeException> prefetchFailureHandler, Duration runway,
		Duration idleThreadTimeout, boolean callerRunsReservations, Timing timing) {

	static final Duration MAX_ALLOCATION_TIMEOUT = Duration.ofDays(1);

	static final Duration MAX_RUNWAY = Duration.ofDays(1);

	/** Long enough that a node reserving a block every few seconds keeps its thread. */
	static final Duration IDLE_THREAD_TIMEOUT = Duration.ofSeconds(10);

	/**
	 * The same settings, but for the timing and how long idle threads live: for tests of
	 * the node's parts.
	 */
	NodeSettings with(Timing timing, Duration idleThreadTimeout, boolean callerRunsReservations) {
		return new NodeSettings(this.registry, this.layout, this.blockSize, this.threshold, this.allocationTimeout,
				this.clock, this.prefetchExecutor, this.maxClockSkew, this.prefetchFailureHandler, this.runway,
				idleThreadTimeout, callerRunsReservations, timing);
	}

	/**
	 * Checks a builder's settings; returns them, or throws naming every violated rule.
	 * @throws InvalidConfigException naming every violated rule, its value and its
	 * allowed range
	 */
	static NodeSettings check(Draft draft) {
		return check(draft.registry, draft.epoch, draft.timestampBits, draft.sequenceBits, draft.layoutMissing,
				draft.blockSize, draft.threshold, draft.allocationTimeout, draft.clock, draft.prefetchExecutor,
				draft.maxClockSkew, draft.prefetchFailureHandler, draft.runway);
	}

	private static NodeSettings check(Registry registry, Instant epoch, int timestampBits, int sequenceBits,
			boolean layoutMissing, long blockSize, long threshold, Duration allocationTimeout, Clock clock,
			@Nullable Executor prefetchExecutor, Duration maxClockSkew,
			@Nullable Consumer<? super RuntimeException> prefetchFailureHandler, Duration runway) {
		List<Violation> violations = new ArrayList<>();
		if (registry == null) {
			violations.add(new Violation("registry", null, "must be set"));
		}
		if (clock == null) {
			violations.add(new Violation("clock", null, "must be set"));
		}
		if (layoutMissing) {
			violations.add(new Violation("layout", null, "must be set (or leave it out for the default layout)"));
		}
		List<Violation> layoutViolations = CridLayout.validate(epoch, timestampBits, sequenceBits);
		violations.addAll(layoutViolations);
		Instant now = (clock != null) ? clock.instant() : null;
		if (epoch != null && now != null && epoch.isAfter(now)) {
			violations.add(new Violation("epoch", epoch, "must not be in the future (the clock reads " + now + ")"));
		}
		if (layoutViolations.isEmpty() && now != null) {
			Instant lastSecond = CridLayout.of(epoch, timestampBits, sequenceBits).lastSecond();
			if (now.getEpochSecond() > lastSecond.getEpochSecond()) {
				violations.add(new Violation("timestampBits", timestampBits,
						"must be larger, or the epoch later: the " + "layout's last second is " + lastSecond
								+ " (epoch " + epoch + " plus 2^" + timestampBits + " - 1 seconds) but the clock reads "
								+ now));
			}
		}
		if (layoutViolations.isEmpty()) {
			long maxBlockSize = (sequenceBits >= CridLayout.TOTAL_BITS) ? Long.MAX_VALUE : 1L << sequenceBits;
			if (blockSize < 1 || blockSize > maxBlockSize) {
				violations.add(new Violation("blockSize", blockSize, "must be in [1, " + maxBlockSize
						+ "] (2^sequenceBits with sequenceBits " + sequenceBits + ")"));
			}
		}
		else if (blockSize < 1) {
			violations.add(new Violation("blockSize", blockSize, "must be at least 1"));
		}
		if (threshold > blockSize) {
			violations.add(new Violation("threshold", threshold,
					"must not exceed blockSize " + blockSize + " (a threshold below 1 turns prefetching off)"));
		}
		if (allocationTimeout == null || allocationTimeout.isNegative() || allocationTimeout.isZero()
				|| allocationTimeout.compareTo(MAX_ALLOCATION_TIMEOUT) > 0) {
			violations.add(new Violation("allocationTimeout", allocationTimeout,
					"must be in (PT0S, " + MAX_ALLOCATION_TIMEOUT + "]"));
		}
		if (maxClockSkew == null || maxClockSkew.isNegative() || maxClockSkew.isZero()) {
			violations.add(new Violation("maxClockSkew", maxClockSkew, "must be positive"));
		}
		if (runway == null || runway.isNegative() || runway.compareTo(MAX_RUNWAY) > 0) {
			violations.add(new Violation("runway", runway, "must be in [PT0S, " + MAX_RUNWAY + "] (PT0S for none)"));
		}
		if (!violations.isEmpty()) {
			throw new InvalidConfigException(violations);
		}
		return new NodeSettings(registry, CridLayout.of(epoch, timestampBits, sequenceBits), blockSize, threshold,
				allocationTimeout, clock, prefetchExecutor, maxClockSkew, prefetchFailureHandler, runway,
				IDLE_THREAD_TIMEOUT, registry.answersFromMemory(), Timing.SYSTEM);
	}

	/**
	 * A builder's settings before they are checked: every one at its default until set.
	 */
	static final class Draft {

		final Registry registry;

		Instant epoch = CridLayout.DEFAULT_EPOCH;

		int timestampBits = CridLayout.DEFAULT_TIMESTAMP_BITS;

		int sequenceBits = CridLayout.DEFAULT_SEQUENCE_BITS;

		/** Whether {@code layout(null)} was called. */
		boolean layoutMissing;

		long blockSize = CridNode.DEFAULT_BLOCK_SIZE;

		long threshold = CridNode.DEFAULT_THRESHOLD;

		Duration allocationTimeout = CridNode.DEFAULT_ALLOCATION_TIMEOUT;

		Clock clock = Clock.systemUTC();

		@Nullable Executor prefetchExecutor;

		Duration maxClockSkew = CridNode.DEFAULT_MAX_CLOCK_SKEW;

		@Nullable Consumer<? super RuntimeException> prefetchFailureHandler;

		Duration runway = Duration.ZERO;

		Draft(Registry registry) {
			this.registry = registry;
		}

		/**
		 * Sets epoch and bit split from a layout; {@code null} is reported by the check.
		 */
		void layout(@Nullable CridLayout layout) {
			this.layoutMissing = (layout == null);
			if (layout != null) {
				this.epoch = layout.epoch();
				this.timestampBits = layout.timestampBits();
				this.sequenceBits = layout.sequenceBits();
			}
		}

	}

}
