package dev.crid;

import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Generates unique IDs from blocks of sequence numbers reserved in a {@link Registry}.
 *
 * <p>An ID is {@code (timestamp << sequenceBits) | sequence}, where the timestamp is the second (since the
 * epoch) in which its block was reserved and the sequence comes from that block. IDs are unique across
 * every node that shares the registry; they are not ordered by the time they were handed out.
 *
 * <p>Handing out an ID costs one atomic increment. When fewer than {@code threshold} IDs are left in the
 * block, the node reserves the next one in the background (on its own daemon thread, or the executor
 * given to the builder); a failed reservation is retried with backoff while the current block lasts and
 * recorded in {@link #stats()}. Only when a block runs out with no successor ready does a caller wait,
 * at most {@code allocationTimeout}. No lock is held while the registry is called.
 *
 * <p>Thread-safe. Close the node when done with it, to stop its background thread.
 *
 * <pre>{@code
 * CridNode node = CridNode.builder(new InMemoryRegistry()).build();
 * long id = node.nextId();
 * }</pre>
 */
public final class CridNode implements AutoCloseable {

	/** Sequence numbers reserved per registry call unless set otherwise: 10,000. */
	public static final long DEFAULT_BLOCK_SIZE = 10_000;

	/** IDs left in the block below which the next block is reserved, unless set otherwise: 5,000. */
	public static final long DEFAULT_THRESHOLD = 5_000;

	/** How long a caller waits for the registry at most, unless set otherwise: 5 seconds. */
	public static final Duration DEFAULT_ALLOCATION_TIMEOUT = Duration.ofSeconds(5);

	private static final Duration MAX_ALLOCATION_TIMEOUT = Duration.ofDays(1);

	private static final System.Logger logger = System.getLogger(CridNode.class.getName());

	private static final AtomicInteger threadNumbers = new AtomicInteger();

	private static final long FIRST_RETRY_DELAY_MILLIS = 10;

	private static final long MAX_RETRY_DELAY_MILLIS = 2_000;

	private final CridLayout layout;

	private final CridParser parser;

	private final long blockSize;

	private final long threshold;

	private final long timeoutNanos;

	private final BlockAllocator allocator;

	private final Executor executor;

	private final ExecutorService ownExecutor;

	private final NodeStatistics statistics;

	private final Object lock = new Object();

	private volatile Block current = Block.empty();

	// Guarded by lock.
	private Block ready;

	private Allocation inflight;

	private long issuedInRetiredBlocks;

	private boolean closed;

	private CridNode(Builder builder, CridLayout layout) {
		this.layout = layout;
		this.parser = CridParser.of(layout);
		this.blockSize = builder.blockSize;
		this.threshold = builder.threshold;
		this.timeoutNanos = builder.allocationTimeout.toNanos();
		this.allocator = new BlockAllocator(builder.registry, layout, builder.clock, this.blockSize, this.threshold);
		this.statistics = new NodeStatistics(builder.clock);
		if (builder.prefetchExecutor != null) {
			this.executor = builder.prefetchExecutor;
			this.ownExecutor = null;
		}
		else {
			this.ownExecutor = Executors.newSingleThreadExecutor(CridNode::newPrefetchThread);
			this.executor = this.ownExecutor;
		}
	}

	private static Thread newPrefetchThread(Runnable task) {
		Thread thread = new Thread(task, "crid-prefetch-" + threadNumbers.incrementAndGet());
		thread.setDaemon(true);
		return thread;
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
	 * @return a non-negative ID, unique among all IDs from nodes sharing this node's registry
	 * @throws RegistryException if no block could be reserved within the allocation timeout
	 * @throws SequenceOverflowException if the current second is used up and the next did not come in time
	 * @throws InvalidSequenceException if the registry answered with an impossible block start
	 * @throws ClockBeforeEpochException if the clock reads a time before the epoch
	 * @throws TimestampOverflowException if the clock is past the layout's last second
	 * @throws NodeClosedException if the node is closed
	 */
	public long nextId() {
		Block block = this.current;
		long offset = block.take();
		if (offset < block.size) {
			if (offset == block.trigger) {
				requestPrefetch();
			}
			return block.firstId + offset;
		}
		return nextIdAfterExhausted(block);
	}

	/**
	 * Returns the next ID as a value.
	 * @return the ID
	 * @see #nextId()
	 */
	public CridId next() {
		return CridId.of(nextId());
	}

	private long nextIdAfterExhausted(Block exhausted) {
		long deadline = System.nanoTime() + this.timeoutNanos;
		boolean stalled = false;
		while (true) {
			Allocation toSubmit = null;
			Allocation toAwait = null;
			synchronized (this.lock) {
				if (this.closed) {
					throw new NodeClosedException("nextId() was called on a closed CridNode");
				}
				if (this.current == exhausted) {
					if (this.ready != null) {
						toSubmit = install(this.ready);
					}
					else {
						if (!stalled) {
							stalled = true;
							this.statistics.stalled();
						}
						if (this.inflight == null) {
							toSubmit = begin(false, deadline);
						}
						toAwait = this.inflight;
					}
				}
			}
			if (toSubmit != null) {
				submit(toSubmit);
			}
			if (toAwait != null) {
				await(toAwait, toAwait == toSubmit, deadline);
				continue;
			}
			Block block = this.current;
			long offset = block.take();
			if (offset < block.size) {
				if (offset == block.trigger) {
					requestPrefetch();
				}
				return block.firstId + offset;
			}
			exhausted = block;
		}
	}

	/**
	 * Waits for an allocation until the caller's deadline. Throws the allocation's failure only if the
	 * caller began it ({@code own}): an attempt made in the background or for another caller may have
	 * failed for reasons that no longer hold (a second that has passed since), so its failure sends the
	 * caller round the loop to ask the registry itself.
	 */
	private void await(Allocation allocation, boolean own, long deadline) {
		long left = deadline - System.nanoTime();
		try {
			allocation.result.get(Math.max(left, 0), TimeUnit.NANOSECONDS);
		}
		catch (TimeoutException ex) {
			long usedUp = allocation.usedUpTimestamp;
			if (usedUp >= 0) {
				SequenceOverflowException overflow = BlockAllocator.usedUp(usedUp);
				overflow.initCause(ex);
				throw overflow;
			}
			throw new RegistryException("No block from registry " + this.allocator + " within the allocation timeout of "
					+ Duration.ofNanos(this.timeoutNanos) + describeLastFailure(), ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new RegistryException("Interrupted while waiting for a block from registry " + this.allocator, ex);
		}
		catch (ExecutionException ex) {
			// Only the failure of an attempt this caller started is its answer; otherwise it tries again.
			if (own) {
				throw (ex.getCause() instanceof CridException failure) ? failure
						: new RegistryException("Block allocation failed: " + ex.getCause(), ex.getCause());
			}
		}
	}

	private String describeLastFailure() {
		String lastFailure = stats().lastFailure();
		return (lastFailure != null) ? "; last failure: " + lastFailure : "";
	}

	/**
	 * Serves the given block from now on; returns the allocation to submit when the block is too small to
	 * ever reach its trigger, else {@code null}.
	 */
	private Allocation install(Block block) {
		this.issuedInRetiredBlocks += this.current.issued();
		this.current = block;
		this.ready = null;
		return (this.allocator.wantsNextOnInstall(block) && this.inflight == null) ? begin(true, 0) : null;
	}

	private void requestPrefetch() {
		Allocation allocation;
		synchronized (this.lock) {
			if (this.closed || this.ready != null || this.inflight != null) {
				return;
			}
			allocation = begin(true, 0);
		}
		submit(allocation);
	}

	/**
	 * Marks an allocation as in flight; the caller submits it once it has released the lock. A synchronous
	 * allocation gives up waiting for a used-up second when the caller who began it does.
	 */
	private Allocation begin(boolean prefetch, long callerDeadline) {
		Allocation allocation = new Allocation(prefetch, callerDeadline);
		this.inflight = allocation;
		return allocation;
	}

	private void submit(Allocation allocation) {
		try {
			this.executor.execute(() -> run(allocation));
		}
		catch (RejectedExecutionException ex) {
			finish(allocation, null, new RegistryException("The prefetch executor refused the allocation task", ex), 0);
		}
		catch (RuntimeException ex) {
			// Some executors signal a shutdown with another exception; the allocation must not stay in flight.
			finish(allocation, null,
					new RegistryException("The prefetch executor failed to take the allocation task: " + ex, ex), 0);
		}
	}

	private void run(Allocation allocation) {
		long started = System.nanoTime();
		Block block = null;
		RuntimeException failure = null;
		Error fatal = null;
		try {
			long deadline = allocation.prefetch ? started + this.timeoutNanos : allocation.callerDeadline;
			block = this.allocator.allocate(deadline, allocation::waitingForNextSecond);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			failure = new RegistryException("Interrupted while reserving a block", ex);
		}
		catch (RuntimeException ex) {
			failure = ex;
		}
		catch (Error ex) {
			// A registry that throws an Error (a driver bug, a missing class) must still finish the allocation:
			// left in flight, it would make every later caller wait for it until the node is closed.
			failure = new RegistryException("Registry " + this.allocator + " failed: " + ex, ex);
			fatal = (ex instanceof VirtualMachineError) ? ex : null;
		}
		finish(allocation, block, failure, System.nanoTime() - started);
		if (fatal != null) {
			throw fatal;
		}
	}

	private void finish(Allocation allocation, Block block, RuntimeException failure, long nanos) {
		long failuresInRow = 0;
		boolean retry = false;
		synchronized (this.lock) {
			if (this.inflight == allocation) {
				this.inflight = null;
			}
			if (failure == null) {
				failuresInRow = this.statistics.succeeded(allocation.prefetch, nanos);
				if (!this.closed) {
					this.ready = block;
				}
			}
			else {
				failuresInRow = this.statistics.failed(allocation.prefetch, nanos, failure);
				retry = allocation.prefetch && !this.closed && this.current.left() > 0;
			}
		}
		long failures = failuresInRow;
		if (failure == null) {
			allocation.result.complete(block);
			if (failures > 0) {
				logger.log(Level.INFO, () -> "Registry " + this.allocator + " reserved a block again after " + failures
						+ " failed calls");
			}
			return;
		}
		allocation.result.completeExceptionally(failure);
		if (retry) {
			long delay = Math.min(FIRST_RETRY_DELAY_MILLIS << Math.min(failures - 1, 16), MAX_RETRY_DELAY_MILLIS);
			logger.log(Level.WARNING, () -> "Pre-allocation from registry " + this.allocator + " failed (" + failures
					+ " in a row), retrying in " + delay + " ms: " + NodeStatistics.describe(failure));
			CompletableFuture.delayedExecutor(delay, TimeUnit.MILLISECONDS).execute(this::requestPrefetch);
		}
		else {
			logger.log(Level.WARNING, () -> "Block allocation from registry " + this.allocator + " failed: "
					+ NodeStatistics.describe(failure));
		}
	}

	/**
	 * Returns the layout of this node's IDs.
	 * @return the layout
	 */
	public CridLayout layout() {
		return this.layout;
	}

	/**
	 * Returns a parser for this node's IDs.
	 * @return a parser with this node's layout
	 */
	public CridParser parser() {
		return this.parser;
	}

	/**
	 * Returns the number of sequence numbers this node reserves per registry call.
	 * @return the block size
	 */
	public long blockSize() {
		return this.blockSize;
	}

	/**
	 * Returns the number of IDs left in a block below which this node reserves the next one.
	 * @return the threshold; below 1 means the node never reserves ahead
	 */
	public long threshold() {
		return this.threshold;
	}

	/**
	 * Returns a snapshot of this node's counters and state. Cheap, and never calls the registry.
	 * @return the snapshot
	 */
	public CridStats stats() {
		synchronized (this.lock) {
			Block block = this.current;
			return this.statistics.snapshot(this.issuedInRetiredBlocks + block.issued(), block.left(),
					this.ready != null);
		}
	}

	/**
	 * Returns whether {@link #close()} has been called.
	 * @return {@code true} once closed
	 */
	public boolean isClosed() {
		synchronized (this.lock) {
			return this.closed;
		}
	}

	/**
	 * Closes the node: later calls to {@link #nextId()} fail with {@link NodeClosedException}, callers
	 * waiting for a block are released with that exception, and the node's own background thread stops
	 * (an executor given to the builder is left running). Calls racing with {@code close()} may still
	 * receive IDs from the block being served; they remain unique. Idempotent.
	 */
	@Override
	public void close() {
		Allocation pending;
		synchronized (this.lock) {
			if (this.closed) {
				return;
			}
			this.closed = true;
			this.issuedInRetiredBlocks += this.current.issued();
			this.current = Block.empty();
			this.ready = null;
			pending = this.inflight;
			this.inflight = null;
		}
		if (pending != null) {
			pending.result.completeExceptionally(new NodeClosedException("The CridNode was closed"));
		}
		if (this.ownExecutor != null) {
			this.ownExecutor.shutdownNow();
			try {
				this.ownExecutor.awaitTermination(this.timeoutNanos, TimeUnit.NANOSECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

	@Override
	public String toString() {
		return "CridNode[" + this.layout + ", blockSize=" + this.blockSize + ", threshold=" + this.threshold
				+ ", registry=" + this.allocator + "]";
	}

	/** One registry call in flight, and whether it was started ahead of need. */
	private static final class Allocation {

		final boolean prefetch;

		/** For a synchronous allocation, the {@link System#nanoTime()} its caller waits until. */
		final long callerDeadline;

		final CompletableFuture<Block> result = new CompletableFuture<>();

		/** The used-up timestamp whose end the allocation is waiting for, or -1. */
		volatile long usedUpTimestamp = -1;

		Allocation(boolean prefetch, long callerDeadline) {
			this.prefetch = prefetch;
			this.callerDeadline = callerDeadline;
		}

		void waitingForNextSecond(long timestamp) {
			this.usedUpTimestamp = timestamp;
		}

	}

	/**
	 * Configures and builds a {@link CridNode}. Every setting has a default; {@link #build()} checks them
	 * all and reports every violated rule at once.
	 */
	public static final class Builder {

		private final Registry registry;

		private Instant epoch = CridLayout.DEFAULT_EPOCH;

		private int timestampBits = CridLayout.DEFAULT_TIMESTAMP_BITS;

		private int sequenceBits = CridLayout.DEFAULT_SEQUENCE_BITS;

		private long blockSize = DEFAULT_BLOCK_SIZE;

		private long threshold = DEFAULT_THRESHOLD;

		private Duration allocationTimeout = DEFAULT_ALLOCATION_TIMEOUT;

		private Clock clock = Clock.systemUTC();

		private Executor prefetchExecutor;

		private Builder(Registry registry) {
			this.registry = registry;
		}

		/**
		 * Sets the instant timestamps count from. Default {@link CridLayout#DEFAULT_EPOCH}; must not be in
		 * the future.
		 * @param epoch the epoch
		 * @return this builder
		 */
		public Builder epoch(Instant epoch) {
			this.epoch = epoch;
			return this;
		}

		/**
		 * Sets the number of timestamp bits. Default 31; with the sequence bits it must add up to 63.
		 * @param timestampBits bits in [0, 63]
		 * @return this builder
		 */
		public Builder timestampBits(int timestampBits) {
			this.timestampBits = timestampBits;
			return this;
		}

		/**
		 * Sets the number of sequence bits. Default 32; with the timestamp bits it must add up to 63.
		 * @param sequenceBits bits in [0, 63]
		 * @return this builder
		 */
		public Builder sequenceBits(int sequenceBits) {
			this.sequenceBits = sequenceBits;
			return this;
		}

		/**
		 * Sets epoch and bit split from a layout.
		 * @param layout the layout
		 * @return this builder
		 */
		public Builder layout(CridLayout layout) {
			this.epoch = layout.epoch();
			this.timestampBits = layout.timestampBits();
			this.sequenceBits = layout.sequenceBits();
			return this;
		}

		/**
		 * Sets how many sequence numbers one registry call reserves. Default 10,000; must be in
		 * [1, 2^sequenceBits]. Larger blocks mean fewer registry calls and larger gaps when a node stops
		 * with part of a block unused.
		 * @param blockSize the block size
		 * @return this builder
		 */
		public Builder blockSize(long blockSize) {
			this.blockSize = blockSize;
			return this;
		}

		/**
		 * Sets how few IDs may be left in a block before the next one is reserved in the background.
		 * Default 5,000; must not exceed the block size; below 1 turns pre-allocation off. Keep it at least
		 * the peak rate of IDs per second times the registry's latency.
		 * @param threshold the threshold
		 * @return this builder
		 */
		public Builder threshold(long threshold) {
			this.threshold = threshold;
			return this;
		}

		/**
		 * Sets how long a caller waits at most for a block, and how long a reservation may wait for a
		 * used-up second to pass. Default 5 seconds; must be positive and at most one day.
		 * @param allocationTimeout the timeout
		 * @return this builder
		 */
		public Builder allocationTimeout(Duration allocationTimeout) {
			this.allocationTimeout = allocationTimeout;
			return this;
		}

		/**
		 * Sets the clock that timestamps come from. Default the system clock in UTC.
		 * @param clock the clock
		 * @return this builder
		 */
		public Builder clock(Clock clock) {
			this.clock = clock;
			return this;
		}

		/**
		 * Sets the executor that runs registry calls. By default the node starts its own daemon thread,
		 * and stops it on {@link CridNode#close()}; an executor given here is never shut down by the node.
		 * @param prefetchExecutor the executor
		 * @return this builder
		 */
		public Builder prefetchExecutor(Executor prefetchExecutor) {
			this.prefetchExecutor = prefetchExecutor;
			return this;
		}

		/**
		 * Checks every setting and builds the node. Does not call the registry: the first block is
		 * reserved by the first call to {@link CridNode#nextId()}.
		 * @return the node
		 * @throws InvalidConfigException naming every violated rule, its value and its allowed range
		 */
		public CridNode build() {
			List<String> violations = new ArrayList<>();
			if (this.registry == null) {
				violations.add("registry must be set");
			}
			if (this.clock == null) {
				violations.add("clock must be set");
			}
			List<String> layoutViolations = CridLayout.validate(this.epoch, this.timestampBits, this.sequenceBits);
			violations.addAll(layoutViolations);
			if (this.epoch != null && this.clock != null && this.epoch.isAfter(this.clock.instant())) {
				violations.add("epoch is " + this.epoch + " but must not be in the future (the clock reads "
						+ this.clock.instant() + ")");
			}
			if (layoutViolations.isEmpty()) {
				long maxBlockSize = (this.sequenceBits >= CridLayout.TOTAL_BITS) ? Long.MAX_VALUE : 1L << this.sequenceBits;
				if (this.blockSize < 1 || this.blockSize > maxBlockSize) {
					violations.add("blockSize is " + this.blockSize + " but must be in [1, " + maxBlockSize
							+ "] (2^sequenceBits with sequenceBits " + this.sequenceBits + ")");
				}
			}
			else if (this.blockSize < 1) {
				violations.add("blockSize is " + this.blockSize + " but must be at least 1");
			}
			if (this.threshold > this.blockSize) {
				violations.add("threshold is " + this.threshold + " but must not exceed blockSize " + this.blockSize
						+ " (a threshold below 1 turns pre-allocation off)");
			}
			if (this.allocationTimeout == null || this.allocationTimeout.isNegative() || this.allocationTimeout.isZero()
					|| this.allocationTimeout.compareTo(MAX_ALLOCATION_TIMEOUT) > 0) {
				violations.add("allocationTimeout is " + this.allocationTimeout + " but must be in (PT0S, "
						+ MAX_ALLOCATION_TIMEOUT + "]");
			}
			if (!violations.isEmpty()) {
				throw new InvalidConfigException(violations);
			}
			return new CridNode(this, CridLayout.of(this.epoch, this.timestampBits, this.sequenceBits));
		}

	}

}
