package dev.crid;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

/**
 * Generates unique IDs from blocks of sequence numbers reserved in a {@link Registry}.
 *
 * <p>
 * An ID is {@code (timestamp << sequenceBits) | sequence}, where the timestamp is the
 * second (since the epoch) in which its block was reserved and the sequence comes from
 * that block. IDs are unique across every node that shares the registry; they are not
 * ordered by the time they were handed out.
 *
 * <p>
 * Handing out an ID costs one atomic increment. When fewer than {@code threshold} IDs are
 * left in the block, the node reserves the next one in the background, on its own daemon
 * thread (or the executor given to the builder). Only when a block runs out with no
 * successor ready does a caller wait, at most {@code allocationTimeout}; within it the
 * node keeps asking, with backoff, while the registry's failure may pass, so a short
 * outage costs callers a delay rather than an error. No lock is held while the registry
 * is called, and no registry call can hold callers up for good: one that has not returned
 * within the timeout (and a grace) is given up on, and whatever it returns later is
 * dropped.
 *
 * <p>
 * The node is made of package-private parts ({@link NodeParts}), each with one job and
 * its invariant at its top; {@code docs/internals.md} lists every part.
 *
 * <p>
 * Before its first block the node checks that the registry serves its layout; it measures
 * its clock against the registry's at every reservation (for registries that tell their
 * clock) and refuses to serve IDs while the two are further apart than
 * {@code maxClockSkew}; and it refuses any block that overlaps one it was given before
 * for the same second, which only a registry that went back (a restored backup, a
 * failover to a lagging replica) hands out. {@link #stats()} shows all of it.
 *
 * <p>
 * Thread-safe. Close the node when done with it, to stop its background thread.
 *
 * <pre class="code">
 * CridNode node = CridNode.builder(new InMemoryRegistry()).build();
 * long id = node.nextId();</pre>
 */
public final class CridNode implements AutoCloseable {

	/** Sequence numbers reserved per registry call unless set otherwise: 10,000. */
	public static final long DEFAULT_BLOCK_SIZE = 10_000;

	/** IDs left in a block when the next is reserved, unless set otherwise: 5,000. */
	public static final long DEFAULT_THRESHOLD = 5_000;

	/** How long a caller waits for a block at most, unless set otherwise: 5 seconds. */
	public static final Duration DEFAULT_ALLOCATION_TIMEOUT = Duration.ofSeconds(5);

	/**
	 * How far this node's clock may be from its registry's before the node refuses to
	 * serve IDs, unless set otherwise: 1 minute. Well above what NTP keeps clocks to,
	 * well below anything that would make an ID's timestamp misleading or a registry's
	 * eviction refuse the node.
	 */
	public static final Duration DEFAULT_MAX_CLOCK_SKEW = Duration.ofMinutes(1);

	private final NodeSettings settings;

	private final NodeParts parts;

	private final Dispenser dispenser;

	/** The stripes' slots, held here for the fast path to load as little as it can. */
	private final Slice[] stripeSlots;

	CridNode(NodeSettings settings) {
		this.settings = settings;
		this.parts = new NodeParts(settings);
		this.dispenser = this.parts.dispenser;
		this.stripeSlots = this.dispenser.slots();
	}

	/**
	 * Starts building a node that reserves its blocks in the given registry.
	 * @param registry the registry shared by every node whose IDs must not collide
	 * @return a builder with every setting at its default
	 */
	public static Builder builder(Registry registry) {
		return new Builder(registry);
	}

	/**
	 * Returns the next ID.
	 * @return a non-negative ID, unique among all IDs from nodes sharing this node's
	 * registry
	 * @throws RegistryException if no block could be reserved within the allocation
	 * timeout, or at once when the registry's failure is not
	 * {@link RegistryException#isRetryable() retryable}
	 * @throws LayoutMismatchException if the registry was first used with another layout
	 * @throws SequenceOverflowException if the current second is used up and the next did
	 * not come in time
	 * @throws InvalidSequenceException if the registry answered with an impossible block
	 * start
	 * @throws ClockBeforeEpochException if the clock reads a time before the epoch
	 * @throws TimestampOverflowException if the clock is past the layout's last second
	 * @throws NodeClosedException if the node is closed
	 */
	public long nextId() {
		int slot = Stripes.slotOf();
		Slice slice = Stripes.get(this.stripeSlots, slot);
		if (slice != null) {
			long offset = slice.take();
			if (offset < slice.end) {
				return slice.firstId + offset;
			}
		}
		return this.dispenser.refill(slot, slice);
	}

	/**
	 * Returns {@code count} IDs, unique as those of {@link #nextId()}, taking them a
	 * block at a time: one atomic step per block touched, reserving further blocks as
	 * needed. Each wait for a block is bounded by the allocation timeout, as for
	 * {@code nextId()}; when one fails, the IDs taken so far are gaps.
	 * @param count how many IDs, zero or more
	 * @return the IDs, in no particular order
	 * @throws IllegalArgumentException if the count is negative
	 * @throws RegistryException as {@link #nextId()} does
	 * @throws SequenceOverflowException as {@link #nextId()} does
	 * @throws NodeClosedException if the node is closed, whatever the count
	 */
	public long[] nextIds(int count) {
		if (count < 0) {
			throw new IllegalArgumentException("count is " + count + " but must not be negative");
		}
		return this.dispenser.nextIds(count);
	}

	/**
	 * Returns the next ID as a value.
	 * @return the ID
	 * @see #nextId()
	 */
	public CridId next() {
		return CridId.of(nextId());
	}

	/**
	 * Gets the node ready before its first {@link #nextId()}: checks the registry's
	 * layout and reserves the first block now, waiting at most the allocation timeout, so
	 * the first callers find a block in memory. Does nothing when a block is at hand
	 * already. Spring Boot calls it at start-up.
	 * @throws LayoutMismatchException if the registry was first used with another layout
	 * @throws RegistryException if no block could be reserved within the allocation
	 * timeout
	 * @throws NodeClosedException if the node is closed
	 */
	public void warmUp() {
		this.parts.waits.warmUp();
	}

	/**
	 * Returns the layout of this node's IDs.
	 * @return the layout
	 */
	public CridLayout layout() {
		return this.settings.layout();
	}

	/**
	 * Returns a parser for this node's IDs.
	 * @return a parser with this node's layout
	 */
	public CridParser parser() {
		return this.parts.parser;
	}

	/**
	 * Returns the number of sequence numbers this node reserves per registry call.
	 * @return the block size
	 */
	public long blockSize() {
		return this.settings.blockSize();
	}

	/**
	 * Returns the number of IDs left in a block below which this node reserves the next
	 * one.
	 * @return the threshold; below 1 means the node never reserves ahead
	 */
	public long threshold() {
		return this.settings.threshold();
	}

	/**
	 * Returns how long a caller waits for the registry at most.
	 * @return the allocation timeout
	 */
	public Duration allocationTimeout() {
		return this.settings.allocationTimeout();
	}

	/**
	 * Returns how far this node's clock may be from its registry's before it refuses to
	 * serve IDs.
	 * @return the largest clock skew allowed
	 */
	public Duration maxClockSkew() {
		return this.settings.maxClockSkew();
	}

	/**
	 * Returns how long the IDs this node keeps in stock should last at its measured rate.
	 * @return the runway; zero when the node keeps no stock beyond its next block
	 */
	public Duration runway() {
		return this.settings.runway();
	}

	/**
	 * Returns a snapshot of this node's counters and state. Cheap, and never calls the
	 * registry.
	 * @return the snapshot
	 */
	public CridStats stats() {
		return this.dispenser.stats();
	}

	/**
	 * Returns whether {@link #close()} has been called.
	 * @return {@code true} once closed
	 */
	public boolean isClosed() {
		return this.parts.supply.isClosed();
	}

	/**
	 * Closes the node: later calls to {@link #nextId()} fail with
	 * {@link NodeClosedException}, callers waiting for a block are released with that
	 * exception, no registry call begins from now on, and the node's own background
	 * threads are stopped (an executor given to the builder is left running). It returns
	 * once the registry calls under way have returned and the node's threads have ended,
	 * or after the allocation timeout or a second, whichever is less (a call that ignores
	 * its interrupt is left to return on its own: it makes no further call, and what it
	 * returns is dropped); called on one of the node's own threads, it does not wait for
	 * them. Calls racing with {@code close()} may still receive IDs from the block being
	 * served; they remain unique. Idempotent: a {@code close()} racing with another
	 * returns only once the node is closed, as the first does.
	 */
	@Override
	public void close() {
		this.parts.close();
	}

	/** The node's checked settings, for tests that build a node with some changed. */
	NodeSettings settings() {
		return this.settings;
	}

	@Override
	public String toString() {
		return "CridNode[" + this.settings.layout() + ", blockSize=" + this.settings.blockSize() + ", threshold="
				+ this.settings.threshold() + ", registry=" + this.settings.registry() + "]";
	}

	/**
	 * Configures and builds a {@link CridNode}. Every setting has a default;
	 * {@link #build()} checks them all and reports every violated rule at once.
	 */
	public static final class Builder {

		private final NodeSettings.Draft draft;

		private Builder(Registry registry) {
			this.draft = new NodeSettings.Draft(registry);
		}

		/**
		 * Sets the instant timestamps count from. Default
		 * {@link CridLayout#DEFAULT_EPOCH}; must not be in the future.
		 * @param epoch the epoch
		 * @return this builder
		 */
		public Builder epoch(Instant epoch) {
			this.draft.epoch = epoch;
			return this;
		}

		/**
		 * Sets the number of timestamp bits. Default 31; with the sequence bits it must
		 * add up to 63.
		 * @param timestampBits bits in [0, 63]
		 * @return this builder
		 */
		public Builder timestampBits(int timestampBits) {
			this.draft.timestampBits = timestampBits;
			return this;
		}

		/**
		 * Sets the number of sequence bits. Default 32; with the timestamp bits it must
		 * add up to 63.
		 * @param sequenceBits bits in [0, 63]
		 * @return this builder
		 */
		public Builder sequenceBits(int sequenceBits) {
			this.draft.sequenceBits = sequenceBits;
			return this;
		}

		/**
		 * Sets epoch and bit split from a layout.
		 * @param layout the layout
		 * @return this builder
		 */
		public Builder layout(CridLayout layout) {
			this.draft.layout(layout);
			return this;
		}

		/**
		 * Sets how many sequence numbers one registry call reserves at first. Default
		 * 10,000; in [1, 2^sequenceBits]. A node using blocks up faster than the registry
		 * answers, or within a quarter second, asks for up to 64 times as many (a
		 * sixteenth of a second's numbers at most), one with a runway for what its stock
		 * lacks. Larger blocks: fewer registry calls, larger gaps when a node stops.
		 * @param blockSize the block size
		 * @return this builder
		 */
		public Builder blockSize(long blockSize) {
			this.draft.blockSize = blockSize;
			return this;
		}

		/**
		 * Sets how few IDs may be left in a block before the next one is reserved in the
		 * background. Default 5,000; must not exceed the block size; below 1 turns
		 * prefetching off. Keep it at least the peak rate of IDs per second times the
		 * registry's latency.
		 * @param threshold the threshold
		 * @return this builder
		 */
		public Builder threshold(long threshold) {
			this.draft.threshold = threshold;
			return this;
		}

		/**
		 * Sets how long a caller waits at most for a block, and how long a reservation
		 * may wait for a used-up second to pass. Default 5 seconds; must be positive and
		 * at most one day.
		 * @param allocationTimeout the timeout
		 * @return this builder
		 */
		public Builder allocationTimeout(Duration allocationTimeout) {
			this.draft.allocationTimeout = allocationTimeout;
			return this;
		}

		/**
		 * Sets the clock that timestamps come from. Default the system clock in UTC.
		 * @param clock the clock
		 * @return this builder
		 */
		public Builder clock(Clock clock) {
			this.draft.clock = clock;
			return this;
		}

		/**
		 * Sets how far this node's clock may be from its registry's before it refuses to
		 * serve IDs, for registries that tell their clock (the database registry does).
		 * Default 1 minute; must be positive. A node whose clock is further off discards
		 * the block it was given and keeps asking, with backoff, until the clocks agree;
		 * {@link CridStats#clockSkew()} shows the last measurement.
		 * @param maxClockSkew the largest skew allowed
		 * @return this builder
		 */
		public Builder maxClockSkew(Duration maxClockSkew) {
			this.draft.maxClockSkew = maxClockSkew;
			return this;
		}

		/**
		 * Sets a handler told of every failed background reservation (crid for Go's
		 * prefill error handler), for example to count or report them. It runs on the
		 * thread where the reservation failed, and must return quickly: the node's
		 * background thread, or the caller's when the executor refused the task or a
		 * caller ran the reservation itself. Whatever it throws is logged and otherwise
		 * ignored (an {@link Error} too, which still reaches its thread once the
		 * reservation has ended). Failures are also logged and counted in
		 * {@link CridNode#stats()} without it.
		 * @param handler the handler, or {@code null} for none
		 * @return this builder
		 */
		public Builder onPrefetchFailure(@Nullable Consumer<? super RuntimeException> handler) {
			this.draft.prefetchFailureHandler = handler;
			return this;
		}

		/**
		 * Sets the executor that runs registry calls. By default the node starts its own
		 * daemon thread, and stops it on {@link CridNode#close()}; an executor given here
		 * is never shut down by the node. It must run tasks on threads of its own: an
		 * executor that runs them on the submitting thread ({@code Runnable::run}) makes
		 * callers wait for registry calls beyond the allocation timeout, and the node
		 * logs a warning when it sees one. An executor that drops tasks silently delays
		 * callers by one allocation timeout, after which the node gives up on the dropped
		 * task and submits anew.
		 * @param prefetchExecutor the executor
		 * @return this builder
		 */
		public Builder prefetchExecutor(Executor prefetchExecutor) {
			this.draft.prefetchExecutor = prefetchExecutor;
			return this;
		}

		/**
		 * Sets how long the node should serve IDs without its registry: it keeps in stock
		 * the IDs it handed out over its last runway (its rate is measured over the
		 * runway, a second at least and a minute at most), restocked in large calls that
		 * take at most a sixteenth of any second's sequence numbers. Default zero, at
		 * most a day. A node that stops loses its stock; a block of the stock expires
		 * 1.25 times the runway after it was reserved, so an ID is handed out at most
		 * 1.25 times the runway after the second it carries has ended. Such a node checks
		 * each ID's block against its clock, and sets no IDs aside per thread.
		 * @param runway the runway, or {@link Duration#ZERO} for none
		 * @return this builder
		 */
		public Builder runway(Duration runway) {
			this.draft.runway = runway;
			return this;
		}

		/**
		 * Checks every setting and builds the node. Does not call the registry: the first
		 * block is reserved by the first call to {@link CridNode#nextId()}.
		 * @return the node
		 * @throws InvalidConfigException naming every violated rule, its value and its
		 * allowed range
		 */
		public CridNode build() {
			return new CridNode(NodeSettings.check(this.draft));
		}

	}

}
