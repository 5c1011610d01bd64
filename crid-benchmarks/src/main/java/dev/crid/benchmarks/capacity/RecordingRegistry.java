package dev.crid.benchmarks.capacity;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

import dev.crid.CridLayout;
import dev.crid.Registry;
import org.HdrHistogram.Histogram;

/**
 * Passes every call on to the registry it wraps and records, while recording is on, what
 * one node asked of it: the calls and their durations (the pool's wait for a connection
 * included: in the simulation a worker's nodes share one pool), the calls that failed,
 * the answers that said the second was used up (a start beyond the layout's largest
 * sequence number), and the sequence numbers reserved, per second of the registry.
 */
final class RecordingRegistry implements Registry {

	private final Registry registry;

	private final long maxSequence;

	private volatile boolean recording;

	private final AtomicLong calls = new AtomicLong();

	private final AtomicLong failures = new AtomicLong();

	private final AtomicLong usedUp = new AtomicLong();

	private final AtomicLong reserved = new AtomicLong();

	private final Map<Long, Long> reservedPerSecond = new TreeMap<>();

	private final Histogram durations = new Histogram(2);

	RecordingRegistry(Registry registry, CridLayout layout) {
		this.registry = registry;
		this.maxSequence = layout.maxSequence();
	}

	void recording(boolean recording) {
		this.recording = recording;
	}

	@Override
	public long allocate(long timestamp, long blockSize) {
		return reserve(timestamp, blockSize).start();
	}

	@Override
	public Reservation reserve(long timestamp, long blockSize) {
		boolean recorded = this.recording;
		long started = System.nanoTime();
		boolean failed = true;
		try {
			Reservation reservation = this.registry.reserve(timestamp, blockSize);
			failed = false;
			if (recorded) {
				count(timestamp, reservation.start(), blockSize);
			}
			return reservation;
		}
		finally {
			if (recorded) {
				long duration = System.nanoTime() - started;
				this.calls.incrementAndGet();
				if (failed) {
					this.failures.incrementAndGet();
				}
				synchronized (this.durations) {
					this.durations.recordValue(duration);
				}
			}
		}
	}

	private void count(long timestamp, long start, long blockSize) {
		if (start < 0 || start > this.maxSequence) {
			this.usedUp.incrementAndGet();
			return;
		}
		// A block that runs past the second's last number is clamped by the node.
		long numbers = Math.min(blockSize, this.maxSequence - start + 1);
		this.reserved.addAndGet(numbers);
		synchronized (this.reservedPerSecond) {
			this.reservedPerSecond.merge(timestamp, numbers, Long::sum);
		}
	}

	@Override
	public void checkLayout(CridLayout layout) {
		this.registry.checkLayout(layout);
	}

	@Override
	public String kind() {
		return this.registry.kind();
	}

	@Override
	public Map<String, Object> details() {
		return this.registry.details();
	}

	@Override
	public boolean check() {
		return this.registry.check();
	}

	@Override
	public boolean answersFromMemory() {
		return this.registry.answersFromMemory();
	}

	long calls() {
		return this.calls.get();
	}

	long failures() {
		return this.failures.get();
	}

	long usedUp() {
		return this.usedUp.get();
	}

	long reserved() {
		return this.reserved.get();
	}

	Map<Long, Long> reservedPerSecond() {
		synchronized (this.reservedPerSecond) {
			return new TreeMap<>(this.reservedPerSecond);
		}
	}

	Histogram durations() {
		synchronized (this.durations) {
			return this.durations.copy();
		}
	}

	@Override
	public String toString() {
		return this.registry.toString();
	}

}
