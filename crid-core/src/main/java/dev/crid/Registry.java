package dev.crid;

import java.time.Instant;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * The shared source of sequence numbers. For each timestamp it hands out non-overlapping
 * blocks, which is all that makes IDs unique: any number of nodes, in any number of
 * processes, may share one registry.
 *
 * <p>
 * Implementations must be thread-safe. A node calls {@link #reserve} once per block, on
 * its own background thread (or the executor given to its builder); only for a registry
 * that {@link #answersFromMemory() answers from memory} may a caller of {@code nextId()}
 * make the call itself, when it finds the call queued and not started. Only
 * {@link #allocate} must be implemented; a registry that knows more overrides the default
 * methods: {@link #reserve} to report its own clock, {@link #checkLayout} to refuse nodes
 * whose layout differs from the one it was first used with, and {@link #kind},
 * {@link #details}, {@link #check} and {@link #answersFromMemory} to tell what it is and
 * what it can do. A registry that wraps another (to trace or count its calls, say) passes
 * every one of these methods on to the one it wraps, so that nothing a node or a health
 * check asks of it is lost.
 */
@FunctionalInterface
public interface Registry {

	/**
	 * Reserves {@code blockSize} sequence numbers for {@code timestamp} and returns the
	 * first. Successive calls for the same timestamp, from any caller, return
	 * non-overlapping blocks: the first call returns 0, the next {@code blockSize}, and
	 * so on. A start beyond the layout's largest sequence number, or
	 * {@link Long#MAX_VALUE} whatever the layout, tells the node that the second is used
	 * up.
	 * @param timestamp seconds since the layout's epoch, never negative
	 * @param blockSize how many sequence numbers to reserve, at least 1
	 * @return the first sequence number of the reserved block
	 * @throws RegistryException on any failure, with the underlying cause attached
	 */
	long allocate(long timestamp, long blockSize);

	/**
	 * Reserves a block as {@link #allocate} does and says what the registry's clock read
	 * while it did. Nodes call this method; the default calls {@link #allocate} and knows
	 * no clock.
	 * @param timestamp seconds since the layout's epoch, never negative
	 * @param blockSize how many sequence numbers to reserve, at least 1
	 * @return the block's first sequence number, and the registry's clock if it knows one
	 * @throws RegistryException on any failure, with the underlying cause attached
	 */
	default Reservation reserve(long timestamp, long blockSize) {
		return new Reservation(allocate(timestamp, blockSize), null);
	}

	/**
	 * Records the layout the first time the registry is used, and refuses any other
	 * afterwards. A node calls it before it reserves its first block. The default records
	 * nothing and refuses nothing.
	 * @param layout the layout of the node about to use the registry
	 * @throws LayoutMismatchException if the registry was first used with another layout
	 * @throws RegistryException if the registry cannot be reached
	 */
	default void checkLayout(CridLayout layout) {
	}

	/**
	 * Names the kind of registry, for health checks, the actuator endpoint, traces and
	 * logs: {@code memory}, {@code jdbc}, {@code r2dbc}, {@code etcd}, or by default the
	 * class's simple name.
	 * @return a short lower-case name
	 */
	default String kind() {
		return getClass().getSimpleName();
	}

	/**
	 * Describes where the registry keeps its blocks, for health checks and the actuator
	 * endpoint: its table and dialect, say. Never blocks and never calls the registry's
	 * store: what is not known yet is left out. The default tells nothing.
	 * @return the details, in display order
	 */
	default Map<String, Object> details() {
		return Map.of();
	}

	/**
	 * Checks, without reserving a block, that the registry can serve: for a database,
	 * that it answers and its table can be read. It may block as long as the store takes
	 * to answer: a caller that must answer in time (a health check) bounds its wait. The
	 * default checks nothing.
	 * @return {@code true} if the registry was checked and can serve, {@code false} if it
	 * has nothing to check
	 * @throws RegistryException if it cannot serve:
	 * {@linkplain RegistryException#isRetryable() retryable} when the store could not be
	 * reached or did not answer, not retryable when it answered that it cannot serve (a
	 * missing table, say)
	 */
	default boolean check() {
		return false;
	}

	/**
	 * Tells whether {@link #reserve} answers from this process's memory, waiting on
	 * nothing but a lock. A node lets a caller that finds such a reservation queued make
	 * it itself instead of waiting for a thread to take it up; for any other registry
	 * callers only wait, within their allocation timeout. The default is {@code false}.
	 * @return {@code true} only if a call can never hold its caller up
	 */
	default boolean answersFromMemory() {
		return false;
	}

	/**
	 * A reserved block's start, and what the registry's clock read when it reserved it.
	 *
	 * @param start the first sequence number of the block
	 * @param registryTime the registry's clock during the reservation, or {@code null}
	 * when unknown
	 */
	record Reservation(long start, @Nullable Instant registryTime) {
	}

}
