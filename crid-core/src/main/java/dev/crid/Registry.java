package dev.crid;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * The shared source of sequence numbers. For each timestamp it hands out non-overlapping
 * blocks, which is all that makes IDs unique: any number of nodes, in any number of
 * processes, may share one registry.
 *
 * <p>
 * Implementations must be thread-safe. A node calls {@link #reserve} once per block, on
 * its own background thread (or the executor given to its builder), never on the thread
 * of a caller of {@code nextId()}. Only {@link #allocate} must be implemented; a registry
 * that knows more overrides the default methods: {@link #reserve} to report its own
 * clock, {@link #checkLayout} to refuse nodes whose layout differs from the one it was
 * first used with.
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
	 * A reserved block's start, and what the registry's clock read when it reserved it.
	 *
	 * @param start the first sequence number of the block
	 * @param registryTime the registry's clock during the reservation, or {@code null}
	 * when unknown
	 */
	record Reservation(long start, @Nullable Instant registryTime) {
	}

}
