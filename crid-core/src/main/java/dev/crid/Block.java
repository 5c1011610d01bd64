package dev.crid;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A block of sequence numbers reserved for one timestamp, served by handing out offsets from zero. The
 * only shared write is one atomic increment per ID; threads that draw an offset past the end have found
 * the block exhausted.
 */
final class Block {

	private static final VarHandle TAKEN;

	static {
		try {
			TAKEN = MethodHandles.lookup().findVarHandle(Block.class, "taken", long.class);
		}
		catch (ReflectiveOperationException ex) {
			throw new ExceptionInInitializerError(ex);
		}
	}

	/** Offset at which a block asks for pre-allocation, when it never does. */
	static final long NO_TRIGGER = -1;

	/** Seconds since the epoch this block was reserved for. */
	final long timestamp;

	/** The first ID of the block: its timestamp and first sequence number put together. */
	final long firstId;

	/** How many IDs the block holds; 0 for the placeholder blocks of a new or closed node. */
	final long size;

	/** The offset whose taker asks for the next block, or {@link #NO_TRIGGER}. */
	final long trigger;

	@SuppressWarnings("unused") // written through TAKEN
	private volatile long taken;

	Block(long timestamp, long firstId, long size, long trigger) {
		this.timestamp = timestamp;
		this.firstId = firstId;
		this.size = size;
		this.trigger = trigger;
	}

	static Block empty() {
		return new Block(0, 0, 0, NO_TRIGGER);
	}

	/**
	 * Takes the next offset; an offset at or past {@link #size} means the block is exhausted.
	 */
	long take() {
		return (long) TAKEN.getAndAdd(this, 1L);
	}

	long issued() {
		return Math.min(this.taken, this.size);
	}

	long left() {
		return this.size - issued();
	}

}
