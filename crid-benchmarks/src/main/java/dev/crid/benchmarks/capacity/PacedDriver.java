package dev.crid.benchmarks.capacity;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A caller thread that drives a few nodes, each at its own rate, on one schedule: once
 * per tick it hands out, node by node, the IDs that the schedule asks of the node by
 * then, and sleeps until the next tick. A node that fell behind (its driver was
 * descheduled, or a call waited for the registry) catches up at the next tick, so the
 * rate reached is what the machine and the registry allowed; how late the ticks ran is
 * recorded. The schedule starts at {@code start} and ends at {@code end}; the calls and
 * their sample of durations count from {@code measurementStart} on.
 */
final class PacedDriver extends Thread {

	private static final long SHORTEST_TICK = TimeUnit.MILLISECONDS.toNanos(1);

	private static final long LONGEST_TICK = TimeUnit.MILLISECONDS.toNanos(10);

	private static final long LATE = TimeUnit.MILLISECONDS.toNanos(10);

	private final long tickNanos;

	private final List<SimulatedNode> nodes;

	private final Sampler sampler;

	private final long start;

	private final long measurementStart;

	private final long end;

	private long lateTicks;

	private long maxLatenessNanos;

	private long lateWakeUps;

	private long maxWakeUpDelayNanos;

	PacedDriver(String name, List<SimulatedNode> nodes, int sampleEvery, long start, long measurementStart, long end) {
		super(name);
		setDaemon(true);
		this.nodes = nodes;
		this.sampler = new Sampler(sampleEvery);
		this.start = start;
		this.measurementStart = measurementStart;
		this.end = end;
		long fastest = nodes.stream().mapToLong(SimulatedNode::rate).max().orElse(1);
		this.tickNanos = Math.max(SHORTEST_TICK, Math.min(LONGEST_TICK, TimeUnit.SECONDS.toNanos(100) / fastest));
	}

	@Override
	public void run() {
		long tick = this.start;
		boolean measuring = false;
		while (true) {
			long now = System.nanoTime();
			if (now >= this.end) {
				break;
			}
			if (!measuring && now >= this.measurementStart) {
				measuring = true;
			}
			if (measuring) {
				long lateness = now - tick;
				if (lateness > LATE) {
					this.lateTicks++;
				}
				this.maxLatenessNanos = Math.max(this.maxLatenessNanos, lateness);
			}
			long elapsed = now - this.start;
			for (SimulatedNode node : this.nodes) {
				node.serve(elapsed, measuring, this.sampler);
			}
			// A tick that started late is not made up for by ticks in quick succession.
			tick = Math.max(tick + this.tickNanos, now);
			long sleep = tick - System.nanoTime();
			if (sleep > 0) {
				LockSupport.parkNanos(sleep);
				if (measuring) {
					// How long after its tick a sleeping thread got a core: the machine's
					// delay
					// alone, without the time a call of the tick before took.
					long delay = System.nanoTime() - tick;
					if (delay > LATE) {
						this.lateWakeUps++;
					}
					this.maxWakeUpDelayNanos = Math.max(this.maxWakeUpDelayNanos, delay);
				}
			}
		}
	}

	/** Ticks of the measurement that started more than 10 ms late. */
	long lateTicks() {
		return this.lateTicks;
	}

	/**
	 * Wake-ups of the measurement that came more than 10 ms after the tick the thread
	 * slept until.
	 */
	long lateWakeUps() {
		return this.lateWakeUps;
	}

	/** How long after its tick the latest wake-up of the measurement came. */
	long maxWakeUpDelayNanos() {
		return this.maxWakeUpDelayNanos;
	}

	/** How late the latest tick of the measurement started. */
	long maxLatenessNanos() {
		return this.maxLatenessNanos;
	}

}
