package dev.crid;

import java.util.Map;
import java.util.TreeMap;

import org.jspecify.annotations.Nullable;

/**
 * A registry held in this process's memory: for tests, examples and applications that run
 * as a single process. IDs are unique among the nodes that share one instance, and
 * nowhere else; nothing survives a restart.
 *
 * <p>
 * Its memory is bounded. It remembers the most recent {@code retainedTimestamps}
 * timestamps (one hour of seconds by default) and forgets older ones; it refuses, with a
 * {@link RegistryException} that is not {@link RegistryException#isRetryable() retryable}
 * (asking again cannot bring a forgotten second back), any timestamp at or below the
 * newest one it has forgotten, because it could no longer tell which blocks of that
 * second are taken. Nodes only ask for the current second, so this matters only to a
 * clock that jumps back by more than the window.
 *
 * <p>
 * A second whose counter would pass {@link Long#MAX_VALUE} is used up: its last block
 * ends there and every later call for it returns {@code Long.MAX_VALUE}, which nodes read
 * as "wait for the next second". The registry records the layout of the first node that
 * uses it and refuses nodes with another one.
 *
 * <p>
 * Thread-safe.
 */
public final class InMemoryRegistry implements Registry {

	/**
	 * How many timestamps the registry remembers unless told otherwise: one hour of
	 * seconds.
	 */
	public static final int DEFAULT_RETAINED_TIMESTAMPS = 3600;

	private final int retainedTimestamps;

	private final TreeMap<Long, Long> nextSequences = new TreeMap<>();

	private long forgottenUpTo = -1;

	private @Nullable CridLayout layout;

	/**
	 * Creates a registry that remembers {@link #DEFAULT_RETAINED_TIMESTAMPS} timestamps.
	 */
	public InMemoryRegistry() {
		this(DEFAULT_RETAINED_TIMESTAMPS);
	}

	/**
	 * Creates a registry that remembers the given number of most recent timestamps.
	 * @param retainedTimestamps how many timestamps to remember, at least 1
	 */
	public InMemoryRegistry(int retainedTimestamps) {
		if (retainedTimestamps < 1) {
			throw new IllegalArgumentException(
					"retainedTimestamps is " + retainedTimestamps + " but must be at least 1");
		}
		this.retainedTimestamps = retainedTimestamps;
	}

	@Override
	public synchronized long allocate(long timestamp, long blockSize) {
		if (timestamp < 0) {
			throw new IllegalArgumentException("timestamp is " + timestamp + " but must not be negative");
		}
		if (blockSize < 1) {
			throw new IllegalArgumentException("blockSize is " + blockSize + " but must be at least 1");
		}
		if (timestamp <= this.forgottenUpTo) {
			throw new RegistryException("Timestamp " + timestamp + " is older than the " + this.retainedTimestamps
					+ " timestamps this in-memory registry remembers (it forgot up to " + this.forgottenUpTo
					+ "); refusing rather than risk handing out a block twice", null, false);
		}
		long start = this.nextSequences.getOrDefault(timestamp, 0L);
		this.nextSequences.put(timestamp, (start > Long.MAX_VALUE - blockSize) ? Long.MAX_VALUE : start + blockSize);
		while (this.nextSequences.size() > this.retainedTimestamps) {
			Map.Entry<Long, Long> oldest = this.nextSequences.pollFirstEntry();
			this.forgottenUpTo = Math.max(this.forgottenUpTo, oldest.getKey());
		}
		return start;
	}

	/**
	 * Records the layout of the first node that uses this registry and refuses any other.
	 * @param layout the layout of the node about to use the registry
	 * @throws LayoutMismatchException if a node with another layout used it first
	 */
	@Override
	public synchronized void checkLayout(CridLayout layout) {
		if (this.layout == null) {
			this.layout = layout;
		}
		else if (!this.layout.equals(layout)) {
			throw new LayoutMismatchException(toString(), this.layout, layout);
		}
	}

	/**
	 * Returns how many timestamps the registry currently remembers.
	 * @return a count no larger than the retention set at construction
	 */
	public synchronized int size() {
		return this.nextSequences.size();
	}

	/**
	 * Returns {@code memory}.
	 * @return the kind
	 */
	@Override
	public String kind() {
		return "memory";
	}

	/**
	 * Returns how many timestamps the registry remembers at most.
	 * @return the details
	 */
	@Override
	public Map<String, Object> details() {
		return Map.of("retainedTimestamps", this.retainedTimestamps);
	}

	/**
	 * Returns {@code true}: a registry in memory can always serve.
	 * @return {@code true}
	 */
	@Override
	public boolean check() {
		return true;
	}

	/**
	 * Returns {@code true}: a call waits on nothing but this registry's lock.
	 * @return {@code true}
	 */
	@Override
	public boolean answersFromMemory() {
		return true;
	}

	@Override
	public String toString() {
		return "InMemoryRegistry[retainedTimestamps=" + this.retainedTimestamps + "]";
	}

}
