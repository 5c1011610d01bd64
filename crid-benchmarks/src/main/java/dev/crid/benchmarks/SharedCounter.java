package dev.crid.benchmarks;

import java.util.concurrent.atomic.AtomicLong;

import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * One {@link AtomicLong} shared by every benchmark thread: the cheapest way to hand out
 * unique numbers in one process, and so the floor that crid's one atomic increment per ID
 * is measured against.
 */
@State(Scope.Benchmark)
public class SharedCounter {

	private final AtomicLong counter = new AtomicLong();

	/**
	 * Returns the next number.
	 * @return the number
	 */
	public long next() {
		return this.counter.getAndIncrement();
	}

}
