package dev.crid.benchmarks;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

/**
 * Spaces the calls of a benchmark thread to a fixed rate: before each call, spins until
 * the call's slot on a fixed schedule. A call that finds its slot already past (the
 * thread was descheduled, or a call before it was slow) goes at once, so the thread
 * catches up rather than silently lowering the rate; how late the calls of the
 * measurement iterations started is reported when the trial ends, because time the thread
 * lost outside the measured call does not show in JMH's percentiles; so is how often the
 * operating system preempted the thread, each time leaving it to run on with cold caches.
 */
@State(Scope.Thread)
public class Pacer {

	private static final long LATE_NANOS = TimeUnit.MICROSECONDS.toNanos(10);

	/** Calls per second. */
	@Param({ "1000000" })
	public long rate;

	private long intervalNanos;

	private long nextSlot;

	private boolean measuring;

	private long calls;

	private long lateCalls;

	private long maxLatenessNanos;

	private long switchesBefore;

	private long preemptions;

	/**
	 * Starts the schedule afresh at each iteration, so the pause between iterations is
	 * not made up for.
	 * @param iteration the iteration about to run
	 */
	@Setup(Level.Iteration)
	public void restart(IterationParams iteration) {
		this.intervalNanos = TimeUnit.SECONDS.toNanos(1) / this.rate;
		this.measuring = iteration.getType() == IterationType.MEASUREMENT;
		this.switchesBefore = ThreadSwitches.involuntary();
		this.nextSlot = System.nanoTime();
	}

	/**
	 * Counts how often the system preempted this thread during a measurement iteration.
	 */
	@TearDown(Level.Iteration)
	public void countPreemptions() {
		long switches = ThreadSwitches.involuntary();
		if (this.measuring && switches >= 0 && this.switchesBefore >= 0) {
			this.preemptions += switches - this.switchesBefore;
		}
	}

	/**
	 * Waits for the next call's slot.
	 */
	@Setup(Level.Invocation)
	public void awaitSlot() {
		long slot = this.nextSlot;
		long now = System.nanoTime();
		while (now < slot) {
			Thread.onSpinWait();
			now = System.nanoTime();
		}
		this.nextSlot = slot + this.intervalNanos;
		if (this.measuring) {
			long lateness = now - slot;
			this.calls++;
			if (lateness > LATE_NANOS) {
				this.lateCalls++;
			}
			this.maxLatenessNanos = Math.max(this.maxLatenessNanos, lateness);
		}
	}

	/**
	 * Reports the achieved schedule of the measurement iterations.
	 * @param benchmark the benchmark being run
	 */
	@TearDown(Level.Trial)
	public void report(BenchmarkParams benchmark) {
		String registry = benchmark.getParam("registry");
		StatsLog.write(Map.of("benchmark", benchmark.getBenchmark(), "registry", (registry != null) ? registry : "none",
				"kind", "pacing", "rate", this.rate, "measuredCalls", this.calls, "callsStartedOver10usLate",
				this.lateCalls, "maxLatenessMicros", this.maxLatenessNanos / 1000.0, "preemptions", this.preemptions));
	}

}
