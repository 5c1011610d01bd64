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
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * Generates unique IDs from blocks of sequence numbers reserved in a {@link Registry}.
 *
 * <p>An ID is {@code (timestamp << sequenceBits) | sequence}, where the timestamp is the second (since the
 * epoch) in which its block was reserved and the sequence comes from that block. IDs are unique across
 * every node that shares the registry; they are not ordered by the time they were handed out.
 *
 * <p>Handing out an ID costs one atomic increment. When fewer than {@code threshold} IDs are left in the
 * block, the node reserves the next one in the background, on its own daemon thread (or the executor
 * given to the builder). Only when a block runs out with no successor ready does a caller wait, at most
 * {@code allocationTimeout}; within it the node keeps asking, with backoff, while the registry's failure
 * may pass, so a short outage costs callers a delay rather than an error. No lock is held while the
 * registry is called, and no registry call can hold callers up for good: one that has not returned
 * within the timeout (and a grace) is given up on, and whatever it returns later is dropped.
 *
 * <p>Before its first block the node checks that the registry serves its layout; it measures its clock
 * against the registry's at every reservation (for registries that tell their clock) and refuses to
 * serve IDs while the two are further apart than {@code maxClockSkew}; and it refuses any block that
 * overlaps one it was given before for the same second, which only a registry that went back (a
 * restored backup, a failover to a lagging replica) hands out. {@link #stats()} shows all of it.
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

	/**
	 * How far this node's clock may be from its registry's before the node refuses to serve IDs, unless
	 * set otherwise: 1 minute. Well above what NTP keeps clocks to, well below anything that would make an
	 * ID's timestamp misleading or a registry's eviction refuse the node.
	 */
	public static final Duration DEFAULT_MAX_CLOCK_SKEW = Duration.ofMinutes(1);

	private static final Duration MAX_ALLOCATION_TIMEOUT = Duration.ofDays(1);

	private static final System.Logger logger = System.getLogger(CridNode.class.getName());

	private static final AtomicInteger threadNumbers = new AtomicInteger();

	private static final long FIRST_RETRY_DELAY_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

	/** Short enough that IDs flow again soon after the registry comes back. */
	private static final long MAX_RETRY_DELAY_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

	private static final long IDLE_THREAD_KEEP_ALIVE_SECONDS = 10;

	/** The most IDs a stripe sets aside at once: a refill in this many calls stays out of the 99.9th percentile. */
	private static final long MAX_SLICE_SIZE = 4_096;

	private static final long STUCK_GRACE_NANOS = TimeUnit.SECONDS.toNanos(1);

	private final CridLayout layout;

	private final CridParser parser;

	private final long blockSize;

	private final long threshold;

	private final long timeoutNanos;

	private final BlockAllocator allocator;

	/** When to reserve ahead and how much; guarded by lock. */
	private final Pacing pacing;

	private final Executor executor;

	private final ThreadPoolExecutor ownExecutor;

	private final NodeStatistics statistics;

	private final Consumer<? super RuntimeException> prefetchFailureHandler;

	private final Stripes stripes = new Stripes(Runtime.getRuntime().availableProcessors());

	/** The stripes' slots and mask, held here too so that the path every ID takes loads one object less. */
	private final Slice[] stripeSlots = this.stripes.slots();

	private final int stripeMask = this.stripes.mask();

	private final long sliceSize;

	/** Offsets set aside in the stripes when the node closed: no caller will get them. */
	private final LongAdder unservedOffsets = new LongAdder();

	private final Object lock = new Object();

	private volatile Block current = Block.empty();

	private volatile boolean directExecutorReported;

	// Guarded by lock.
	private Block ready;

	private Allocation inflight;

	private long issuedInRetiredBlocks;

	/** Written under the lock; read without it where a slice is set aside. */
	private volatile boolean closed;

	private CridNode(Builder builder, CridLayout layout) {
		this.layout = layout;
		this.parser = CridParser.of(layout);
		this.blockSize = builder.blockSize;
		this.threshold = builder.threshold;
		// Small next to a block, so what stripes hold when the node stops is a small gap.
		this.sliceSize = Math.max(1, Math.min(MAX_SLICE_SIZE, this.blockSize / (2L * this.stripes.count())));
		this.timeoutNanos = builder.allocationTimeout.toNanos();
		this.statistics = new NodeStatistics(builder.clock);
		this.allocator = new BlockAllocator(builder.registry, layout, builder.clock, builder.maxClockSkew,
				this.statistics);
		long sequencesPerSecond = (layout.maxSequence() == Long.MAX_VALUE) ? Long.MAX_VALUE : layout.maxSequence() + 1;
		this.pacing = new Pacing(this.blockSize, this.threshold, sequencesPerSecond);
		this.prefetchFailureHandler = builder.prefetchFailureHandler;
		if (builder.prefetchExecutor != null) {
			this.executor = builder.prefetchExecutor;
			this.ownExecutor = null;
		}
		else {
			// One thread does all the work; a second starts only while the first is stuck in a registry call
			// that callers gave up on, and it ends when the call returns.
			this.ownExecutor = new ThreadPoolExecutor(1, Integer.MAX_VALUE, IDLE_THREAD_KEEP_ALIVE_SECONDS,
					TimeUnit.SECONDS, new SynchronousQueue<>(), CridNode::newPrefetchThread);
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
	 * @throws RegistryException if no block could be reserved within the allocation timeout, or at once
	 * when the registry's failure is not {@link RegistryException#isRetryable() retryable}
	 * @throws LayoutMismatchException if the registry was first used with another layout
	 * @throws SequenceOverflowException if the current second is used up and the next did not come in time
	 * @throws InvalidSequenceException if the registry answered with an impossible block start
	 * @throws ClockBeforeEpochException if the clock reads a time before the epoch
	 * @throws TimestampOverflowException if the clock is past the layout's last second
	 * @throws NodeClosedException if the node is closed
	 */
	public long nextId() {
		int stripe = Stripes.slotOf(this.stripeMask);
		Slice slice = Stripes.get(this.stripeSlots, stripe);
		if (slice != null) {
			long offset = slice.take();
			if (offset < slice.end) {
				return slice.firstId + offset;
			}
		}
		return nextIdFromBlock(stripe, slice);
	}

	/**
	 * Takes a slice of the current block for the caller's stripe, hands out its first ID and sets the rest
	 * aside for the stripe's threads; waits for the next block when the current one is exhausted.
	 */
	private long nextIdFromBlock(int stripe, Slice usedUp) {
		// One thread of the stripe refills it; others meanwhile take single IDs, so no slice is set aside
		// in vain.
		boolean refilling = usedUp != Slice.REFILLING && this.stripes.replace(stripe, usedUp, Slice.REFILLING);
		try {
			Wait wait = null;
			while (true) {
				Block block = this.current;
				long wanted = refilling ? this.sliceSize : 1;
				long start = block.take(wanted);
				if (start < block.size) {
					long end = Math.min(start + wanted, block.size);
					reachedTrigger(block, start, end);
					if (refilling && end - start > 1) {
						this.stripes.set(stripe, new Slice(block, start + 1, end));
						refilling = false;
						if (this.closed) {
							// Set aside while close() emptied the stripes: a closed node hands out nothing more.
							this.unservedOffsets.add(this.stripes.clear());
						}
					}
					return block.firstId + start;
				}
				if (wait == null) {
					wait = new Wait(System.nanoTime() + this.timeoutNanos);
				}
				awaitNextBlock(block, wait);
			}
		}
		finally {
			if (refilling) {
				this.stripes.replace(stripe, Slice.REFILLING, null);
			}
		}
	}

	/**
	 * Returns {@code count} IDs, unique as those of {@link #nextId()}, taking them a block at a time: one
	 * atomic step per block touched, reserving further blocks as needed. Each wait for a block is bounded
	 * by the allocation timeout, as for {@code nextId()}; when one fails, the IDs taken so far are gaps.
	 * @param count how many IDs, zero or more
	 * @return the IDs, in no particular order
	 * @throws IllegalArgumentException if the count is negative
	 * @throws RegistryException as {@link #nextId()} does
	 * @throws SequenceOverflowException as {@link #nextId()} does
	 * @throws NodeClosedException if the node is closed
	 */
	public long[] nextIds(int count) {
		if (count < 0) {
			throw new IllegalArgumentException("count is " + count + " but must not be negative");
		}
		long[] ids = new long[count];
		int filled = 0;
		Wait wait = null;
		while (filled < count) {
			Block block = this.current;
			long start = block.take(count - filled);
			if (start < block.size) {
				long end = Math.min(start + (count - filled), block.size);
				reachedTrigger(block, start, end);
				for (long offset = start; offset < end; offset++) {
					ids[filled++] = block.firstId + offset;
				}
				wait = null;
				continue;
			}
			if (wait == null) {
				wait = new Wait(System.nanoTime() + this.timeoutNanos);
			}
			awaitNextBlock(block, wait);
		}
		return ids;
	}

	/** IDs left to hand out: in the current block, and set aside in the stripes. */
	private long idsAtHand() {
		return this.current.left() + this.stripes.unused(null);
	}

	/** Asks for the next block when offsets {@code [start, end)} of a block include its trigger. */
	private void reachedTrigger(Block block, long start, long end) {
		if (block.trigger >= start && block.trigger < end) {
			requestPrefetch();
		}
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
	 * Gets the node ready before its first {@link #nextId()}: checks the registry's layout and reserves the
	 * first block now, waiting at most the allocation timeout, so the first callers find a block in memory.
	 * Does nothing when a block is at hand already. Spring Boot calls it at start-up.
	 * @throws LayoutMismatchException if the registry was first used with another layout
	 * @throws RegistryException if no block could be reserved within the allocation timeout
	 * @throws NodeClosedException if the node is closed
	 */
	public void warmUp() {
		long deadline = System.nanoTime() + this.timeoutNanos;
		Allocation toSubmit = null;
		Allocation toAwait;
		synchronized (this.lock) {
			if (this.closed) {
				throw new NodeClosedException("warmUp() was called on a closed CridNode");
			}
			if (this.ready != null || idsAtHand() > 0) {
				return;
			}
			if (this.inflight == null) {
				toSubmit = begin(true);
			}
			toAwait = this.inflight;
			toAwait.waiters++;
		}
		if (toSubmit != null) {
			submit(toSubmit);
		}
		RuntimeException failure = awaitAndLeave(toAwait, deadline, null);
		if (failure != null) {
			throw failure;
		}
	}

	/**
	 * Returns once the current block is no longer the exhausted one: installs the block reserved ahead,
	 * or waits for the allocation in flight, or starts one; within the wait's deadline, asks again after a
	 * failure that may pass.
	 */
	private void awaitNextBlock(Block exhausted, Wait wait) {
		while (true) {
			Allocation toSubmit = null;
			Allocation toAwait = null;
			synchronized (this.lock) {
				if (this.closed) {
					throw new NodeClosedException("nextId() was called on a closed CridNode");
				}
				if (this.current != exhausted) {
					return;
				}
				if (this.ready != null) {
					toSubmit = install(this.ready);
				}
				else {
					if (!wait.stalled) {
						wait.stalled = true;
						this.statistics.stalled();
					}
					if (this.inflight == null) {
						toSubmit = begin(false);
					}
					toAwait = this.inflight;
					toAwait.waiters++;
				}
			}
			if (toSubmit != null) {
				submit(toSubmit);
			}
			if (toAwait == null) {
				return;
			}
			RuntimeException failure = awaitAndLeave(toAwait, wait.deadline, wait.lastFailure);
			if (failure != null) {
				if (!callerRetries(failure)) {
					throw failure;
				}
				wait.lastFailure = failure;
				pauseBeforeRetry(toAwait, failure, wait.deadline, wait.backoff);
				wait.backoff = Math.min(wait.backoff * 2, MAX_RETRY_DELAY_NANOS);
			}
		}
	}

	/**
	 * Waits for an allocation until the caller's deadline and returns its failure, or {@code null} once it
	 * has a block. At the deadline, an allocation stuck longer than the allocation timeout (a registry call
	 * that never returns, a task the executor dropped) is abandoned, so the next caller starts afresh.
	 */
	private RuntimeException awaitAndLeave(Allocation allocation, long deadline, RuntimeException lastFailure) {
		try {
			allocation.result.get(Math.max(deadline - System.nanoTime(), 0), TimeUnit.NANOSECONDS);
			return null;
		}
		catch (TimeoutException ex) {
			abandonIfStuck(allocation);
			throw timedOut(allocation, lastFailure, ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new RegistryException("Interrupted while waiting for a block from registry " + this.allocator, ex,
					false);
		}
		catch (ExecutionException ex) {
			Throwable cause = ex.getCause();
			return (cause instanceof RuntimeException failure) ? failure
					: new RegistryException("Block allocation failed: " + cause, cause);
		}
		finally {
			synchronized (this.lock) {
				allocation.waiters--;
			}
		}
	}

	private RuntimeException timedOut(Allocation allocation, RuntimeException callersFailure, Exception timeout) {
		long usedUp = allocation.usedUpTimestamp;
		if (usedUp >= 0) {
			SequenceOverflowException overflow = BlockAllocator.usedUp(usedUp);
			overflow.initCause(timeout);
			return overflow;
		}
		RuntimeException failure = (allocation.lastFailure != null) ? allocation.lastFailure : callersFailure;
		String why = (failure != null) ? "; last failure: " + NodeStatistics.describe(failure)
				: describeStuck(allocation);
		return new RegistryException("No block from registry " + this.allocator + " within the allocation timeout of "
				+ Duration.ofNanos(this.timeoutNanos) + why, (failure != null) ? failure : timeout);
	}

	private static String describeStuck(Allocation allocation) {
		if (!allocation.started) {
			return ": the prefetch executor did not run the task";
		}
		long wentBack = allocation.wentBackTimestamp;
		if (wentBack >= 0) {
			return ": the registry went back in timestamp " + wentBack + " (it handed out numbers it had given this "
					+ "node before) and the next second did not come";
		}
		return (allocation.callStarted != 0) ? ": the registry call did not return" : "";
	}

	/** Waits before a caller tries again; throws when the caller's deadline comes first. */
	private void pauseBeforeRetry(Allocation allocation, RuntimeException failure, long deadline, long backoff) {
		long left = deadline - System.nanoTime();
		if (left <= 0) {
			throw timedOut(allocation, failure, null);
		}
		try {
			TimeUnit.NANOSECONDS.sleep(Math.min(backoff, left));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new RegistryException("Interrupted while waiting to ask registry " + this.allocator + " again", ex,
					false);
		}
	}

	/**
	 * Whether a caller asks the registry again after this failure, within its allocation timeout: a
	 * failure that may pass, or a used-up second, whose end the caller may still live to see.
	 */
	private static boolean callerRetries(RuntimeException failure) {
		return (failure instanceof RegistryException registryFailure && registryFailure.isRetryable())
				|| failure instanceof SequenceOverflowException;
	}

	/**
	 * Whether the background keeps asking after this failure until it gets a block: anything but what
	 * only a change of configuration can mend.
	 */
	private static boolean backgroundRetries(RuntimeException failure) {
		if (failure instanceof RegistryException registryFailure) {
			return registryFailure.isRetryable();
		}
		return !(failure instanceof NodeClosedException);
	}

	/**
	 * Serves the given block from now on, its trigger set by what the node has measured; returns the
	 * allocation to submit when the block should ask for its successor at once, else {@code null}.
	 */
	private Allocation install(Block block) {
		Block retired = this.current;
		this.issuedInRetiredBlocks += retired.issued();
		this.pacing.installing(retired, block, System.nanoTime());
		this.current = block;
		this.ready = null;
		return (block.trigger == 0 && this.inflight == null) ? begin(true) : null;
	}

	private void requestPrefetch() {
		Allocation allocation;
		String gaveUp = null;
		synchronized (this.lock) {
			if (this.closed || this.ready != null) {
				return;
			}
			if (this.inflight != null) {
				if (!this.inflight.stuck(System.nanoTime(), this.timeoutNanos)) {
					return;
				}
				gaveUp = abandon(this.inflight);
			}
			allocation = begin(true);
		}
		warnGaveUp(gaveUp);
		submit(allocation);
	}

	/** Marks an allocation as in flight; the caller submits it once it has released the lock. */
	private Allocation begin(boolean prefetch) {
		Allocation allocation = new Allocation(prefetch, this.pacing.allocationSize());
		this.inflight = allocation;
		return allocation;
	}

	private void abandonIfStuck(Allocation allocation) {
		String gaveUp = null;
		synchronized (this.lock) {
			if (this.inflight == allocation && allocation.stuck(System.nanoTime(), this.timeoutNanos)) {
				gaveUp = abandon(allocation);
			}
		}
		warnGaveUp(gaveUp);
	}

	/** Logs, outside the lock, that an allocation was given up on; does nothing for {@code null}. */
	private static void warnGaveUp(String message) {
		if (message != null) {
			logger.log(Level.WARNING, message);
		}
	}

	/**
	 * Gives up on an allocation stuck longer than the allocation timeout: the next caller starts afresh,
	 * and whatever the stuck call returns, if it ever does, is dropped. Called with the lock held; returns
	 * the warning to log once the lock is released.
	 */
	private String abandon(Allocation allocation) {
		this.inflight = null;
		allocation.abandoned = true;
		if (allocation.runner != null && !allocation.direct) {
			allocation.runner.interrupt();
		}
		RegistryException failure = new RegistryException("Gave up on a block allocation from registry "
				+ this.allocator + describeStuck(allocation) + " within the allocation timeout of "
				+ Duration.ofNanos(this.timeoutNanos));
		long failures = this.statistics.failed(allocation.prefetch, System.nanoTime() - allocation.submitted, failure);
		allocation.lastFailure = failure;
		allocation.result.completeExceptionally(failure);
		return failure.getMessage() + " (" + failures + " failed calls in a row); the next allocation starts afresh";
	}

	private void submit(Allocation allocation) {
		allocation.submitter = Thread.currentThread();
		try {
			this.executor.execute(() -> run(allocation));
		}
		catch (Throwable ex) {
			// Whatever the executor throws (a rejection, or an Error such as "unable to create native thread"),
			// the allocation must not stay in flight: every later caller would wait for it in vain.
			String what = (ex instanceof RejectedExecutionException) ? "refused the allocation task"
					: "failed to take the allocation task: " + ex;
			fail(allocation, new RegistryException("The prefetch executor " + what, ex), 0, false);
		}
		finally {
			allocation.submitter = null;
		}
	}

	private void run(Allocation allocation) {
		boolean direct = allocation.submitter == Thread.currentThread();
		synchronized (this.lock) {
			if (allocation.abandoned || allocation.result.isDone()) {
				return;
			}
			allocation.started = true;
			allocation.direct = direct;
			allocation.runner = Thread.currentThread();
		}
		if (direct) {
			reportDirectExecutor();
		}
		try {
			long backoff = FIRST_RETRY_DELAY_NANOS;
			while (attempt(allocation, direct)) {
				if (!pauseBeforeRetry(allocation, backoff)) {
					return;
				}
				backoff = Math.min(backoff * 2, MAX_RETRY_DELAY_NANOS);
			}
		}
		finally {
			synchronized (this.lock) {
				allocation.runner = null;
				if (allocation.abandoned && !direct) {
					// The interrupt that released a stuck call must not reach the executor's next task.
					Thread.interrupted();
				}
			}
		}
	}

	/** Makes one registry call for the allocation; returns whether to try again after a pause. */
	private boolean attempt(Allocation allocation, boolean direct) {
		long started = System.nanoTime();
		allocation.deadline = started + this.timeoutNanos;
		Block block;
		try {
			block = this.allocator.allocate(allocation);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return fail(allocation, new RegistryException("Interrupted while reserving a block", ex),
					System.nanoTime() - started, false);
		}
		catch (RuntimeException ex) {
			RuntimeException failure = (ex instanceof CridException) ? ex
					: new RegistryException("Block allocation failed: " + ex, ex, false);
			return fail(allocation, failure, System.nanoTime() - started, !direct);
		}
		catch (Error ex) {
			// A registry that throws an Error (a driver bug, a missing class) must still finish the allocation:
			// left in flight, it would make every later caller wait for it until the node is closed.
			fail(allocation, new RegistryException("Registry " + this.allocator + " failed: " + ex, ex),
					System.nanoTime() - started, false);
			if (ex instanceof VirtualMachineError) {
				throw ex;
			}
			return false;
		}
		succeed(allocation, block, System.nanoTime() - started);
		return false;
	}

	private void succeed(Allocation allocation, Block block, long nanos) {
		long failuresBefore;
		synchronized (this.lock) {
			if (allocation.abandoned) {
				logger.log(Level.DEBUG, () -> "Dropped a block that registry " + this.allocator + " returned after its "
						+ "allocation was given up on");
				return;
			}
			if (this.inflight == allocation) {
				this.inflight = null;
			}
			failuresBefore = this.statistics.succeeded(allocation.prefetch, nanos);
			this.pacing.allocated(System.nanoTime() - allocation.submitted);
			if (!this.closed) {
				this.ready = block;
			}
		}
		allocation.result.complete(block);
		if (failuresBefore > 0) {
			logger.log(Level.INFO, () -> "Registry " + this.allocator + " reserved a block again after "
					+ failuresBefore + " failed calls");
		}
	}

	/**
	 * Records a failed call and returns whether the allocation tries again: while a caller waits for it and
	 * the failure may pass, or, with no caller waiting, in the background until it gets a block, so that a
	 * node nobody calls during an outage has a block ready, and reports healthy, soon after the registry
	 * returns. Otherwise the allocation ends with the failure.
	 */
	private boolean fail(Allocation allocation, RuntimeException failure, long nanos, boolean mayRetry) {
		long failuresInRow;
		boolean retry;
		boolean closedNode;
		synchronized (this.lock) {
			closedNode = this.closed;
			if (allocation.abandoned || closedNode) {
				retry = false;
				failuresInRow = 0;
			}
			else {
				failuresInRow = this.statistics.failed(allocation.prefetch, nanos, failure);
				allocation.lastFailure = failure;
				retry = mayRetry
						&& ((allocation.waiters > 0) ? callerRetries(failure) : backgroundRetries(failure));
				if (!retry && this.inflight == allocation) {
					this.inflight = null;
				}
			}
		}
		if (closedNode || allocation.abandoned) {
			logger.log(Level.DEBUG, () -> "A block allocation ended after the node was closed or gave up on it: "
					+ failure);
			allocation.result.completeExceptionally(failure);
			return false;
		}
		logFailure(failure, failuresInRow, retry);
		if (allocation.prefetch) {
			notifyPrefetchFailure(failure);
		}
		if (!retry) {
			allocation.result.completeExceptionally(failure);
		}
		return retry;
	}

	/** Logs the first failure of a run at WARN, and then only every power of two, so an outage stays readable. */
	private void logFailure(RuntimeException failure, long failuresInRow, boolean retry) {
		boolean loud = Long.bitCount(failuresInRow) == 1;
		logger.log(loud ? Level.WARNING : Level.DEBUG, () -> "Block allocation from registry " + this.allocator
				+ " failed (" + failuresInRow + " in a row)" + (retry ? ", trying again" : "") + ": "
				+ NodeStatistics.describe(failure));
	}

	private void notifyPrefetchFailure(RuntimeException failure) {
		if (this.prefetchFailureHandler == null) {
			return;
		}
		try {
			this.prefetchFailureHandler.accept(failure);
		}
		catch (RuntimeException ex) {
			logger.log(Level.WARNING, "The onPrefetchFailure handler threw", ex);
		}
	}

	/**
	 * Waits before the allocation asks again. Returns {@code false}, ending the allocation, when the node
	 * closes or gives up on it meanwhile, or the thread is interrupted.
	 */
	private boolean pauseBeforeRetry(Allocation allocation, long backoff) {
		try {
			TimeUnit.NANOSECONDS.sleep(backoff);
			return true;
		}
		catch (InterruptedException ex) {
			synchronized (this.lock) {
				if (this.inflight == allocation) {
					this.inflight = null;
				}
			}
			allocation.result.completeExceptionally(new RegistryException("Interrupted while waiting to ask registry "
					+ this.allocator + " again", ex));
			return false;
		}
	}

	private void reportDirectExecutor() {
		if (this.directExecutorReported) {
			return;
		}
		this.directExecutorReported = true;
		logger.log(Level.WARNING, "The prefetch executor given to CridNode runs tasks on the calling thread: registry "
				+ "calls then block the callers of nextId() for as long as they take, beyond the allocation timeout, "
				+ "and failed calls are not retried in the background. Give the node an executor with threads of its "
				+ "own, or none");
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
	 * Returns how long a caller waits for the registry at most.
	 * @return the allocation timeout
	 */
	public Duration allocationTimeout() {
		return Duration.ofNanos(this.timeoutNanos);
	}

	/**
	 * Returns how far this node's clock may be from its registry's before it refuses to serve IDs.
	 * @return the largest clock skew allowed
	 */
	public Duration maxClockSkew() {
		return this.allocator.maxClockSkew();
	}

	/**
	 * Returns a snapshot of this node's counters and state. Cheap, and never calls the registry.
	 * @return the snapshot
	 */
	public CridStats stats() {
		synchronized (this.lock) {
			Block block = this.current;
			long issued = this.issuedInRetiredBlocks + block.issued() - this.stripes.unused(null)
					- this.unservedOffsets.sum();
			return this.statistics.snapshot(issued, idsAtHand(), this.ready != null, this.pacing.threshold(),
					this.pacing.allocationSize());
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
	 * waiting for a block are released with that exception, and the node's own background threads stop
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
			this.unservedOffsets.add(this.stripes.clear());
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

	/** A caller's wait for the next block: its deadline, and what it met on the way. */
	private static final class Wait {

		final long deadline;

		boolean stalled;

		RuntimeException lastFailure;

		long backoff = FIRST_RETRY_DELAY_NANOS;

		Wait(long deadline) {
			this.deadline = deadline;
		}

	}

	/**
	 * One allocation in flight: one registry call, or several when failures are retried. Callers wait on
	 * its result; the lock guards the fields that are not volatile.
	 */
	private static final class Allocation implements BlockAllocator.Attempt {

		final boolean prefetch;

		/** How many sequence numbers it reserves. */
		final long size;

		final long submitted = System.nanoTime();

		final CompletableFuture<Block> result = new CompletableFuture<>();

		/** The {@link System#nanoTime()} until which the attempt under way may wait for a used-up second. */
		volatile long deadline;

		/** The used-up timestamp whose end the allocation is waiting for, or -1. */
		volatile long usedUpTimestamp = -1;

		/** When the registry call under way started, or 0 between calls. */
		volatile long callStarted;

		/** The timestamp in which the registry went back, while the allocation waits for the next, or -1. */
		volatile long wentBackTimestamp = -1;

		/** The thread submitting it, while it does: tells an executor that runs tasks on the spot. */
		volatile Thread submitter;

		volatile RuntimeException lastFailure;

		int waiters;

		boolean started;

		boolean direct;

		boolean abandoned;

		Thread runner;

		Allocation(boolean prefetch, long size) {
			this.prefetch = prefetch;
			this.size = size;
		}

		@Override
		public long size() {
			return this.size;
		}

		/**
		 * Whether it has not started, or its registry call has not returned, within the timeout and a grace
		 * of up to a second more: a call merely slower than the timeout still delivers its block.
		 */
		boolean stuck(long now, long timeoutNanos) {
			long limit = timeoutNanos + Math.min(timeoutNanos, STUCK_GRACE_NANOS);
			if (!this.started) {
				return now - this.submitted > limit;
			}
			long call = this.callStarted;
			return call != 0 && now - call > limit;
		}

		@Override
		public long deadline() {
			return this.deadline;
		}

		@Override
		public void registryCallStarted() {
			this.callStarted = System.nanoTime();
			this.wentBackTimestamp = -1;
		}

		@Override
		public void registryWentBack(long timestamp) {
			this.wentBackTimestamp = timestamp;
		}

		@Override
		public void registryCallEnded() {
			this.callStarted = 0;
		}

		@Override
		public void waitingForNextSecond(long timestamp) {
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

		private Duration maxClockSkew = DEFAULT_MAX_CLOCK_SKEW;

		private Consumer<? super RuntimeException> prefetchFailureHandler;

		private boolean layoutMissing;

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
			this.layoutMissing = (layout == null);
			if (layout != null) {
				this.epoch = layout.epoch();
				this.timestampBits = layout.timestampBits();
				this.sequenceBits = layout.sequenceBits();
			}
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
		 * Sets how far this node's clock may be from its registry's before it refuses to serve IDs, for
		 * registries that tell their clock (the database registry does). Default 1 minute; must be positive.
		 * A node whose clock is further off discards the block it was given and keeps asking, with backoff,
		 * until the clocks agree; {@link CridStats#clockSkew()} shows the last measurement.
		 * @param maxClockSkew the largest skew allowed
		 * @return this builder
		 */
		public Builder maxClockSkew(Duration maxClockSkew) {
			this.maxClockSkew = maxClockSkew;
			return this;
		}

		/**
		 * Sets a handler told of every failed background reservation (crid for Go's prefill error handler),
		 * for example to count or report them. It runs on the node's background thread and must return
		 * quickly; what it throws is logged and otherwise ignored. Failures are also logged and counted in
		 * {@link CridNode#stats()} without it.
		 * @param handler the handler, or {@code null} for none
		 * @return this builder
		 */
		public Builder onPrefetchFailure(Consumer<? super RuntimeException> handler) {
			this.prefetchFailureHandler = handler;
			return this;
		}

		/**
		 * Sets the executor that runs registry calls. By default the node starts its own daemon thread,
		 * and stops it on {@link CridNode#close()}; an executor given here is never shut down by the node.
		 * It must run tasks on threads of its own: an executor that runs them on the submitting thread
		 * ({@code Runnable::run}) makes callers wait for registry calls beyond the allocation timeout, and
		 * the node logs a warning when it sees one. An executor that drops tasks silently delays callers
		 * by one allocation timeout, after which the node gives up on the dropped task and submits anew.
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
			List<InvalidConfigException.Violation> violations = new ArrayList<>();
			if (this.registry == null) {
				violations.add(new InvalidConfigException.Violation("registry", null, "must be set"));
			}
			if (this.clock == null) {
				violations.add(new InvalidConfigException.Violation("clock", null, "must be set"));
			}
			if (this.layoutMissing) {
				violations.add(new InvalidConfigException.Violation("layout", null,
						"must be set (or leave it out for the default layout)"));
			}
			List<InvalidConfigException.Violation> layoutViolations = CridLayout.validate(this.epoch, this.timestampBits,
					this.sequenceBits);
			violations.addAll(layoutViolations);
			Instant now = (this.clock != null) ? this.clock.instant() : null;
			if (this.epoch != null && now != null && this.epoch.isAfter(now)) {
				violations.add(new InvalidConfigException.Violation("epoch", this.epoch,
						"must not be in the future (the clock reads " + now + ")"));
			}
			if (layoutViolations.isEmpty() && now != null) {
				Instant lastSecond = CridLayout.of(this.epoch, this.timestampBits, this.sequenceBits).lastSecond();
				if (now.getEpochSecond() > lastSecond.getEpochSecond()) {
					violations.add(new InvalidConfigException.Violation("timestampBits", this.timestampBits,
							"must be larger, or the epoch later: the layout's last second is " + lastSecond + " (epoch "
									+ this.epoch + " plus 2^" + this.timestampBits + " - 1 seconds) but the clock reads "
									+ now));
				}
			}
			if (layoutViolations.isEmpty()) {
				long maxBlockSize = (this.sequenceBits >= CridLayout.TOTAL_BITS) ? Long.MAX_VALUE : 1L << this.sequenceBits;
				if (this.blockSize < 1 || this.blockSize > maxBlockSize) {
					violations.add(new InvalidConfigException.Violation("blockSize", this.blockSize, "must be in [1, "
							+ maxBlockSize + "] (2^sequenceBits with sequenceBits " + this.sequenceBits + ")"));
				}
			}
			else if (this.blockSize < 1) {
				violations.add(new InvalidConfigException.Violation("blockSize", this.blockSize, "must be at least 1"));
			}
			if (this.threshold > this.blockSize) {
				violations.add(new InvalidConfigException.Violation("threshold", this.threshold, "must not exceed "
						+ "blockSize " + this.blockSize + " (a threshold below 1 turns pre-allocation off)"));
			}
			if (this.allocationTimeout == null || this.allocationTimeout.isNegative() || this.allocationTimeout.isZero()
					|| this.allocationTimeout.compareTo(MAX_ALLOCATION_TIMEOUT) > 0) {
				violations.add(new InvalidConfigException.Violation("allocationTimeout", this.allocationTimeout,
						"must be in (PT0S, " + MAX_ALLOCATION_TIMEOUT + "]"));
			}
			if (this.maxClockSkew == null || this.maxClockSkew.isNegative() || this.maxClockSkew.isZero()) {
				violations.add(new InvalidConfigException.Violation("maxClockSkew", this.maxClockSkew, "must be positive"));
			}
			if (!violations.isEmpty()) {
				throw new InvalidConfigException(violations);
			}
			return new CridNode(this, CridLayout.of(this.epoch, this.timestampBits, this.sequenceBits));
		}

	}

}
