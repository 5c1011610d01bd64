package dev.crid.benchmarks;

import dev.crid.CridLayout;
import dev.crid.Registry;

/**
 * Passes every call on to a registry and logs how long it took, so a report can tell a
 * slow registry from a node thread that waited for a core.
 */
final class TimedRegistry implements Registry {

	private final Registry registry;

	private final DurationLog durations = new DurationLog();

	TimedRegistry(Registry registry) {
		this.registry = registry;
	}

	@Override
	public long allocate(long timestamp, long blockSize) {
		return reserve(timestamp, blockSize).start();
	}

	@Override
	public Reservation reserve(long timestamp, long blockSize) {
		long started = System.nanoTime();
		try {
			return this.registry.reserve(timestamp, blockSize);
		}
		finally {
			this.durations.record(System.nanoTime() - started);
		}
	}

	@Override
	public void checkLayout(CridLayout layout) {
		this.registry.checkLayout(layout);
	}

	DurationLog durations() {
		return this.durations;
	}

	@Override
	public String toString() {
		return this.registry.toString();
	}

}
