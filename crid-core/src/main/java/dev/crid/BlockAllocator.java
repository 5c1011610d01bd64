package dev.crid;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;

/**
 * Turns one registry answer into a {@link Block}: reads the clock, asks the registry, rejects starts that
 * cannot be sequence numbers, clamps a block that runs past the largest sequence number, and waits for
 * the next second when the current one is used up.
 */
final class BlockAllocator {

	private final Registry registry;

	private final CridLayout layout;

	private final Clock clock;

	private final long blockSize;

	private final long threshold;

	BlockAllocator(Registry registry, CridLayout layout, Clock clock, long blockSize, long threshold) {
		this.registry = registry;
		this.layout = layout;
		this.clock = clock;
		this.blockSize = blockSize;
		this.threshold = threshold;
	}

	/**
	 * Reserves a block, waiting at most until {@code deadline} (a {@link System#nanoTime()} value) for a
	 * used-up second to pass. Tells {@code waiting} the used-up timestamp while it waits, and {@code -1}
	 * once the next second has come, so that callers who give up meanwhile can say why.
	 */
	Block allocate(long deadline, LongConsumer waiting) throws InterruptedException {
		while (true) {
			long timestamp = this.layout.timestampAt(this.clock.instant());
			long start = callRegistry(timestamp);
			if (start < 0) {
				throw new InvalidSequenceException("Registry " + this.registry + " returned start " + start
						+ " for timestamp " + timestamp + "; a start must be in [0, " + this.layout.maxSequence() + "]");
			}
			if (start <= this.layout.maxSequence()) {
				return block(timestamp, start);
			}
			// Cleared only once the next second has come: a caller that gives up while this attempt is
			// failing with SequenceOverflowException must still see which second was used up.
			waiting.accept(timestamp);
			awaitNextSecond(timestamp, deadline);
			waiting.accept(-1);
		}
	}

	private long callRegistry(long timestamp) {
		try {
			return this.registry.allocate(timestamp, this.blockSize);
		}
		catch (RegistryException ex) {
			throw ex;
		}
		catch (RuntimeException ex) {
			throw new RegistryException("Registry " + this.registry + " failed to reserve " + this.blockSize
					+ " sequence numbers for timestamp " + timestamp + ": " + ex, ex);
		}
	}

	private Block block(long timestamp, long start) {
		long room = this.layout.maxSequence() - start;
		long size = (this.blockSize - 1 <= room) ? this.blockSize : room + 1;
		long trigger = (this.threshold >= 1 && size >= this.threshold) ? size - this.threshold : Block.NO_TRIGGER;
		return new Block(timestamp, this.layout.shiftTimestamp(timestamp) | start, size, trigger);
	}

	/** Whether a block is so small that it should ask for the next one as soon as it is served. */
	boolean wantsNextOnInstall(Block block) {
		return this.threshold >= 1 && block.size < this.threshold;
	}

	private void awaitNextSecond(long exhausted, long deadline) throws InterruptedException {
		while (true) {
			Instant now = this.clock.instant();
			if (this.layout.timestampAt(now) != exhausted) {
				return;
			}
			long left = deadline - System.nanoTime();
			if (left <= 0) {
				throw usedUp(exhausted);
			}
			Instant nextSecond = this.layout.epoch().plusSeconds(exhausted + 1);
			long untilNext = Math.max(Duration.between(now, nextSecond).toNanos(), TimeUnit.MILLISECONDS.toNanos(1));
			TimeUnit.NANOSECONDS.sleep(Math.min(untilNext, left));
		}
	}

	static SequenceOverflowException usedUp(long timestamp) {
		return new SequenceOverflowException("Every sequence number of timestamp " + timestamp
				+ " is reserved and the next second did not come within the allocation timeout");
	}

	@Override
	public String toString() {
		return this.registry.toString();
	}

}
