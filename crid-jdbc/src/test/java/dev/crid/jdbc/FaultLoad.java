package dev.crid.jdbc;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

import dev.crid.CridException;
import dev.crid.CridNode;

/**
 * Callers that take IDs from nodes without a pause while a test puts faults between the nodes and their
 * database, recording every ID, how long each call took, and when calls failed and succeeded. A pause
 * between calls (outside the time measured) keeps the number of IDs recorded, and the memory they take,
 * bounded when blocks come fast.
 */
final class FaultLoad implements AutoCloseable {

	private final List<Thread> callers = new ArrayList<>();

	private final AtomicBoolean running = new AtomicBoolean(true);

	private final ConcurrentLinkedQueue<long[]> ids = new ConcurrentLinkedQueue<>();

	private final AtomicLong failures = new AtomicLong();

	private final AtomicLong longestCallNanos = new AtomicLong();

	private final AtomicLong lastFailureNanos = new AtomicLong();

	private final ConcurrentLinkedQueue<Long> successTimes = new ConcurrentLinkedQueue<>();

	private final LongAdder issued = new LongAdder();

	private final long pauseNanos;

	FaultLoad(List<CridNode> nodes, int callersPerNode) {
		this(nodes, callersPerNode, Duration.ZERO);
	}

	FaultLoad(List<CridNode> nodes, int callersPerNode, Duration pause) {
		this.pauseNanos = pause.toNanos();
		for (CridNode node : nodes) {
			for (int i = 0; i < callersPerNode; i++) {
				Thread caller = new Thread(() -> call(node), "fault-load-" + this.callers.size());
				caller.setDaemon(true);
				this.callers.add(caller);
			}
		}
		this.callers.forEach(Thread::start);
	}

	private void call(CridNode node) {
		long[] taken = new long[1 << 16];
		int count = 0;
		while (this.running.get()) {
			long started = System.nanoTime();
			try {
				long id = node.nextId();
				if (count == taken.length) {
					taken = Arrays.copyOf(taken, taken.length * 2);
				}
				taken[count++] = id;
				this.issued.increment();
				long now = System.nanoTime();
				this.longestCallNanos.accumulateAndGet(now - started, Math::max);
				// One success time per 1,000 IDs is enough to see when IDs flowed.
				if (count % 1_000 == 1) {
					this.successTimes.add(now);
				}
			}
			catch (CridException ex) {
				long now = System.nanoTime();
				this.longestCallNanos.accumulateAndGet(now - started, Math::max);
				this.failures.incrementAndGet();
				this.lastFailureNanos.accumulateAndGet(now, Math::max);
				this.successTimes.add(-now);
			}
			if (this.pauseNanos > 0) {
				LockSupport.parkNanos(this.pauseNanos);
			}
		}
		this.ids.add(Arrays.copyOf(taken, count));
	}

	/** Stops the callers and returns every ID they got, sorted. */
	long[] stop() throws InterruptedException {
		this.running.set(false);
		for (Thread caller : this.callers) {
			caller.join(30_000);
		}
		long[] all = this.ids.stream().flatMapToLong(Arrays::stream).sorted().toArray();
		return all;
	}

	/** Returns how many IDs the callers got so far. */
	long issued() {
		return this.issued.sum();
	}

	long failures() {
		return this.failures.get();
	}

	Duration longestCall() {
		return Duration.ofNanos(this.longestCallNanos.get());
	}

	/**
	 * Returns how long after {@code since} (a {@link System#nanoTime()}) IDs flowed again for good: the
	 * time of the first success after the last failure that came after {@code since}.
	 */
	Duration flowingAgainAfter(long since) {
		long lastFailure = this.successTimes.stream().filter((time) -> time < 0).mapToLong((time) -> -time)
			.filter((time) -> time >= since).max().orElse(since);
		long firstSuccess = this.successTimes.stream().filter((time) -> time > 0 && time > lastFailure)
			.mapToLong(Long::longValue).min().orElse(Long.MAX_VALUE);
		return (firstSuccess == Long.MAX_VALUE) ? null : Duration.ofNanos(Math.max(0, firstSuccess - since));
	}

	static long duplicates(long[] sorted) {
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

}
