package dev.crid;

/**
 * The shared source of sequence numbers. For each timestamp it hands out non-overlapping blocks, which is
 * all that makes IDs unique: any number of nodes, in any number of processes, may share one registry.
 *
 * <p>Implementations must be thread-safe. A node calls {@link #allocate} once per block, from its
 * pre-allocation thread or, when no block is ready, while callers wait.
 */
@FunctionalInterface
public interface Registry {

	/**
	 * Reserves {@code blockSize} sequence numbers for {@code timestamp} and returns the first. Successive
	 * calls for the same timestamp, from any caller, return non-overlapping blocks: the first call returns
	 * 0, the next {@code blockSize}, and so on. A start beyond the layout's largest sequence number tells
	 * the node that the second is used up.
	 * @param timestamp seconds since the layout's epoch, never negative
	 * @param blockSize how many sequence numbers to reserve, at least 1
	 * @return the first sequence number of the reserved block
	 * @throws RegistryException on any failure, with the underlying cause attached
	 */
	long allocate(long timestamp, long blockSize);

}
