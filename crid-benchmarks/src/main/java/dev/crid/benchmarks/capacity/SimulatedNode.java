package dev.crid.benchmarks.capacity;

import java.util.concurrent.TimeUnit;

import dev.crid.CridException;
import dev.crid.CridNode;
import dev.crid.CridStats;
import org.HdrHistogram.Histogram;

/**
 * One node of the simulation with what its caller measured: the IDs it was asked for and
 * handed out, the calls that failed, and the duration of a random sample of its
 * {@code nextId()} calls. One {@link PacedDriver} thread calls it, so the caller's side
 * needs no locks; the driver hands the figures over when it ends.
 */
final class SimulatedNode {

	/**
	 * How far a node catches up at most: IDs older than this on its schedule are dropped.
	 */
	static final long MAX_BACKLOG_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

	private final int index;

	private final CridNode node;

	private final RecordingRegistry registry;

	private final long rate;

	private final Histogram nextIdDurations = new Histogram(2);

	private long issued;

	private long measuredIds;

	private long errors;

	private long dropped;

	private String lastError = "";

	private CridStats statsAtStart;

	private CridStats statsAtEnd;

	SimulatedNode(int index, CridNode node, RecordingRegistry registry, long rate) {
		this.index = index;
		this.node = node;
		this.registry = registry;
		this.rate = rate;
		this.statsAtStart = node.stats();
		this.statsAtEnd = this.statsAtStart;
	}

	/**
	 * Hands out the IDs the schedule asks for by {@code elapsedNanos} after the start;
	 * timing those whose turn the sampler says it is.
	 * @return the calls made
	 */
	long serve(long elapsedNanos, boolean measuring, Sampler sampler) {
		long due = (long) ((double) elapsedNanos * this.rate / 1_000_000_000L) - this.issued;
		long backlog = (long) ((double) MAX_BACKLOG_NANOS * this.rate / 1_000_000_000L);
		if (due > backlog) {
			this.issued += due - backlog;
			if (measuring) {
				this.dropped += due - backlog;
			}
			due = backlog;
		}
		long served = 0;
		try {
			for (; served < due; served++) {
				if (measuring && sampler.timeThisOne()) {
					long started = System.nanoTime();
					this.node.nextId();
					this.nextIdDurations.recordValue(System.nanoTime() - started);
				}
				else {
					this.node.nextId();
				}
			}
		}
		catch (CridException ex) {
			// Skips the rest of this turn rather than spinning on a failing node.
			if (measuring) {
				this.errors++;
				this.lastError = ex.toString();
			}
			served = due;
		}
		this.issued += served;
		if (measuring) {
			this.measuredIds += served;
		}
		return served;
	}

	void measurementStarts() {
		this.statsAtStart = this.node.stats();
		this.registry.recording(true);
	}

	void measurementEnds() {
		this.registry.recording(false);
		this.statsAtEnd = this.node.stats();
	}

	long rate() {
		return this.rate;
	}

	int index() {
		return this.index;
	}

	CridNode node() {
		return this.node;
	}

	/** What this node did in the measurement. */
	NodeResult result(int jvm, double seconds, PacedDriver driver) {
		return new NodeResult(this.index, jvm, this.rate, this.measuredIds, this.dropped, seconds, this.errors,
				this.lastError, this.registry.calls(), this.registry.failures(), this.registry.usedUp(),
				this.registry.reserved(), this.registry.reservedPerSecond(),
				this.statsAtEnd.stalls() - this.statsAtStart.stalls(),
				this.statsAtEnd.synchronousAllocations().count() - this.statsAtStart.synchronousAllocations().count(),
				this.statsAtEnd.allocationSize(), this.statsAtEnd.prefetchThreshold(), driver.lateTicks(),
				driver.maxLatenessNanos(), driver.lateWakeUps(), driver.maxWakeUpDelayNanos(),
				this.nextIdDurations.copy(), this.registry.durations());
	}

}
