package dev.crid.testsupport;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

import dev.crid.CridException;
import dev.crid.CridNode;

/**
 * Callers that take IDs from nodes without a pause while a test puts faults between the
 * nodes and their database, recording every ID, how long each call took, and when calls
 * failed and succeeded. A pause between calls (outside the time measured) keeps the
 * number of IDs recorded, and the memory they take, bounded when blocks come fast.
 *
 * <p>
 * Each caller's budget for one call is its node's allocation timeout and
 * {@link #CALL_MARGIN}. Each caller publishes when its call in flight started, so a call
 * that never returns is seen too: {@link #stop()} fails when a caller is still in a call
 * after its budget, when any call took longer than its budget, or when a caller got
 * anything but an ID or a {@link CridException} (counted as a failure as well).
 */
public final class FaultLoad implements AutoCloseable {

	/**
	 * What a call may take beyond its node's allocation timeout: the node fails a waiting
	 * caller at its deadline, and this machine (two cores shared with other builds) may
	 * take up to about a second to schedule the thread that notices it and the caller
	 * that is told; a wedged node would exceed it by the timeout again, or for ever.
	 */
	public static final Duration CALL_MARGIN = Duration.ofMillis(1_500);

	/** Failures kept for the tests to inspect; more are counted only. */
	private static final int KEPT_FAILURES = 1_000;

	private final List<Thread> callers = new ArrayList<>();

	private final List<CridNode> nodesOfCallers = new ArrayList<>();

	/**
	 * Per caller: the {@link System#nanoTime()} its call in flight started at, or 0
	 * between calls.
	 */
	private final AtomicLongArray inFlightSince;

	private final AtomicBoolean running = new AtomicBoolean(true);

	private final ConcurrentLinkedQueue<long[]> ids = new ConcurrentLinkedQueue<>();

	private final AtomicLong failures = new AtomicLong();

	private final ConcurrentLinkedQueue<Failure> keptFailures = new ConcurrentLinkedQueue<>();

	private final AtomicInteger kept = new AtomicInteger();

	private final ConcurrentLinkedQueue<Throwable> unexpected = new ConcurrentLinkedQueue<>();

	private final ConcurrentLinkedQueue<String> overBudget = new ConcurrentLinkedQueue<>();

	private final AtomicLong longestCallNanos = new AtomicLong();

	private final ConcurrentLinkedQueue<Long> successTimes = new ConcurrentLinkedQueue<>();

	private final LongAdder issued = new LongAdder();

	private final long pauseNanos;

	private boolean stopped;

	/**
	 * Starts callers that take IDs without a pause.
	 * @param nodes the nodes
	 * @param callersPerNode how many callers each node gets
	 */
	public FaultLoad(List<CridNode> nodes, int callersPerNode) {
		this(nodes, callersPerNode, Duration.ZERO);
	}

	/**
	 * Starts callers that take IDs with a pause between calls.
	 * @param nodes the nodes
	 * @param callersPerNode how many callers each node gets
	 * @param pause the pause after each call, outside the time measured
	 */
	public FaultLoad(List<CridNode> nodes, int callersPerNode, Duration pause) {
		this.pauseNanos = pause.toNanos();
		this.inFlightSince = new AtomicLongArray(nodes.size() * callersPerNode);
		for (CridNode node : nodes) {
			for (int i = 0; i < callersPerNode; i++) {
				int index = this.callers.size();
				Thread caller = new Thread(() -> call(index, node), "fault-load-" + index);
				caller.setDaemon(true);
				this.callers.add(caller);
				this.nodesOfCallers.add(node);
			}
		}
		this.callers.forEach(Thread::start);
	}

	private void call(int index, CridNode node) {
		long budgetNanos = budget(node).toNanos();
		long[] taken = new long[1 << 16];
		int count = 0;
		// The first success after a failure is always recorded, so that recovery is
		// measured from the event, not from the next sample.
		boolean failedSinceSample = false;
		try {
			while (this.running.get()) {
				long started = System.nanoTime();
				this.inFlightSince.set(index, started);
				try {
					long id = node.nextId();
					long now = System.nanoTime();
					this.inFlightSince.set(index, 0);
					ended(index, started, now, budgetNanos, null);
					if (count == taken.length) {
						taken = Arrays.copyOf(taken, taken.length * 2);
					}
					taken[count++] = id;
					this.issued.increment();
					// Otherwise one success time per 1,000 IDs is enough to see when IDs
					// flowed.
					if (failedSinceSample || count % 1_000 == 1) {
						this.successTimes.add(now);
						failedSinceSample = false;
					}
				}
				catch (CridException ex) {
					long now = System.nanoTime();
					this.inFlightSince.set(index, 0);
					ended(index, started, now, budgetNanos, ex);
					failed(index, started, now, ex);
					failedSinceSample = true;
				}
				if (this.pauseNanos > 0) {
					LockSupport.parkNanos(this.pauseNanos);
				}
			}
		}
		catch (Throwable ex) {
			// Neither an ID nor a CridException: a failure, and one the test reports as
			// unexpected.
			long now = System.nanoTime();
			long started = this.inFlightSince.getAndSet(index, 0);
			this.unexpected.add(ex);
			failed(index, (started != 0) ? started : now, now, ex);
		}
		finally {
			this.ids.add(Arrays.copyOf(taken, count));
		}
	}

	private void ended(int index, long started, long now, long budgetNanos, Throwable failure) {
		long took = now - started;
		this.longestCallNanos.accumulateAndGet(took, Math::max);
		if (took > budgetNanos) {
			this.overBudget.add(String.format("caller %d: a call took %d ms, over its budget of %d ms%s", index,
					TimeUnit.NANOSECONDS.toMillis(took), TimeUnit.NANOSECONDS.toMillis(budgetNanos),
					(failure != null) ? " (it failed: " + failure + ")" : ""));
		}
	}

	private void failed(int index, long started, long now, Throwable failure) {
		this.failures.incrementAndGet();
		this.successTimes.add(-now);
		if (this.kept.getAndIncrement() < KEPT_FAILURES) {
			this.keptFailures.add(new Failure(index, started, now, failure));
		}
	}

	private static Duration budget(CridNode node) {
		return node.allocationTimeout().plus(CALL_MARGIN);
	}

	/**
	 * Stops the callers and returns every ID they got, sorted.
	 * @return every ID, sorted
	 * @throws AssertionError if a caller did not end within its budget, a call took
	 * longer than its budget, or a caller got something other than an ID or a
	 * {@link CridException}
	 * @throws InterruptedException when interrupted while waiting for the callers
	 */
	public long[] stop() throws InterruptedException {
		this.running.set(false);
		List<String> problems = new ArrayList<>();
		if (!this.stopped) {
			this.stopped = true;
			// Every caller is given its budget from now, in which a call in flight ends
			// and the loop sees the stop.
			long started = System.nanoTime();
			for (int i = 0; i < this.callers.size(); i++) {
				Thread caller = this.callers.get(i);
				long left = budget(this.nodesOfCallers.get(i)).toNanos() - (System.nanoTime() - started);
				caller.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
				if (caller.isAlive()) {
					long since = this.inFlightSince.get(i);
					problems
						.add(String.format("caller %d did not end within its budget of %d ms: %s", i,
								budget(this.nodesOfCallers.get(i)).toMillis(),
								(since != 0)
										? "in a call for " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since)
												+ " ms, at " + Arrays.toString(caller.getStackTrace())
										: "between calls"));
				}
			}
		}
		problems.addAll(this.overBudget);
		for (Throwable ex : this.unexpected) {
			problems.add("a caller got neither an ID nor a CridException: " + ex);
		}
		if (!problems.isEmpty()) {
			AssertionError error = new AssertionError(
					problems.size() + " caller problem(s):\n  " + String.join("\n  ", problems));
			this.unexpected.forEach(error::addSuppressed);
			throw error;
		}
		return this.ids.stream().flatMapToLong(Arrays::stream).sorted().toArray();
	}

	/**
	 * Returns how many IDs the callers got so far.
	 * @return the count
	 */
	public long issued() {
		return this.issued.sum();
	}

	/**
	 * Returns how many calls failed so far, with any exception.
	 * @return the count
	 */
	public long failures() {
		return this.failures.get();
	}

	/**
	 * Returns the first {@value #KEPT_FAILURES} failed calls, in no particular order.
	 * @return the failed calls
	 */
	public List<Failure> failedCalls() {
		return List.copyOf(this.keptFailures);
	}

	/**
	 * Returns how many callers there are.
	 * @return the count
	 */
	public int callers() {
		return this.callers.size();
	}

	/**
	 * Returns how long the longest call took.
	 * @return the longest call
	 */
	public Duration longestCall() {
		return Duration.ofNanos(this.longestCallNanos.get());
	}

	/**
	 * Returns how long after {@code since} (a {@link System#nanoTime()}) IDs flowed again
	 * for good: the time of the first success after the last failure that came after
	 * {@code since}.
	 * @param since a {@link System#nanoTime()}
	 * @return the time, or {@code null} when IDs never flowed again
	 */
	public Duration flowingAgainAfter(long since) {
		long lastFailure = this.successTimes.stream()
			.filter((time) -> time < 0)
			.mapToLong((time) -> -time)
			.filter((time) -> time >= since)
			.max()
			.orElse(since);
		long firstSuccess = this.successTimes.stream()
			.filter((time) -> time > 0 && time > lastFailure)
			.mapToLong(Long::longValue)
			.min()
			.orElse(Long.MAX_VALUE);
		return (firstSuccess == Long.MAX_VALUE) ? null : Duration.ofNanos(Math.max(0, firstSuccess - since));
	}

	/**
	 * Counts the IDs that repeat the one before them.
	 * @param sorted IDs, sorted
	 * @return how many are issued a second time
	 */
	public static long duplicates(long[] sorted) {
		long duplicates = 0;
		for (int i = 1; i < sorted.length; i++) {
			if (sorted[i] == sorted[i - 1]) {
				duplicates++;
			}
		}
		return duplicates;
	}

	@Override
	public void close() throws InterruptedException {
		stop();
	}

	/**
	 * One failed call.
	 *
	 * @param caller the caller's number
	 * @param started when the call started ({@link System#nanoTime()})
	 * @param ended when it failed ({@link System#nanoTime()})
	 * @param exception what it threw
	 */
	public record Failure(int caller, long started, long ended, Throwable exception) {

		/**
		 * Returns how long the failed call took.
		 * @return the time
		 */
		public Duration took() {
			return Duration.ofNanos(this.ended - this.started);
		}

	}

}
