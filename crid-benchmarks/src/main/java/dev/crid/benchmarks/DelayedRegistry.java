package dev.crid.benchmarks;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

import dev.crid.CridLayout;
import dev.crid.Registry;

/**
 * An in-memory registry that answers only after a fixed delay: a registry as slow as a
 * database, without the database's processes, sockets and disk. Paced beside the
 * PostgreSQL registry, it tells the cost of waiting for a slow registry apart from the
 * disturbance the database's work causes on a small machine.
 */
final class DelayedRegistry implements Registry {

	private final Registry registry;

	private final long delayNanos;

	DelayedRegistry(Registry registry, Duration delay) {
		this.registry = registry;
		this.delayNanos = delay.toNanos();
	}

	@Override
	public long allocate(long timestamp, long blockSize) {
		long until = System.nanoTime() + this.delayNanos;
		for (long left = this.delayNanos; left > 0; left = until - System.nanoTime()) {
			LockSupport.parkNanos(left);
		}
		return this.registry.allocate(timestamp, blockSize);
	}

	@Override
	public void checkLayout(CridLayout layout) {
		this.registry.checkLayout(layout);
	}

	@Override
	public String toString() {
		return "DelayedRegistry[" + Duration.ofNanos(this.delayNanos) + ", " + this.registry + "]";
	}

}
