package dev.crid;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A block of sequence numbers reserved for one timestamp, served by handing out offsets
 * from zero: to threads a {@link Slice} at a time, or all at once to a bulk request. The
 * only shared write is one atomic add per slice or request; threads that draw an offset
 * past the end have found the block exhausted.
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

	/** Offset at which a block asks for a prefetch, when it never does. */
	static final long NO_TRIGGER = -1;

	/** Seconds since the epoch this block was reserved for. */
	final long timestamp;

	/** The first sequence number of the block, as the registry answered. */
	final long start;

	/**
	 * The first ID of the block: its timestamp and first sequence number put together.
	 */
	final long firstId;

	/**
	 * How many IDs the block holds; 0 for the placeholder blocks of a new or closed node.
	 */
	final long size;

	/**
	 * The offset whose taker asks for the next block, or {@link #NO_TRIGGER}; set when
	 * the block is installed, before it is published.
	 */
	long trigger = NO_TRIGGER;

	/**
	 * The {@link Timing#nanoTime()} after which the block is no longer served (a node
	 * with a runway bounds the age of its IDs so), or {@link Long#MAX_VALUE} for never.
	 */
	final long expiresAt;

	/** When the block was installed ({@link System#nanoTime()}), or 0 before. */
	long installedAt;

	@SuppressWarnings("unused") // written through TAKEN
	private volatile long taken;

	Block(long timestamp, long start, long firstId, long size) {
		this(timestamp, start, firstId, size, Long.MAX_VALUE);
	}

	Block(long timestamp, long start, long firstId, long size, long expiresAt) {
		this.timestamp = timestamp;
		this.start = start;
		this.firstId = firstId;
		this.size = size;
		this.expiresAt = expiresAt;
	}

	static Block empty() {
		return new Block(0, 0, 0, 0);
	}

	/**
	 * Takes the next {@code count} offsets and returns the first; one at or past
	 * {@link #size} means the block is exhausted, and fewer than {@code count} may be
	 * left before it.
	 */
	long take(long count) {
		return (long) TAKEN.getAndAdd(this, count);
	}

	/** The part of a block not yet served, from {@code offset}, {@code size} IDs long. */
	Block part(long offset, long size) {
		return new Block(this.timestamp, this.start + offset, this.firstId + offset, size, this.expiresAt);
	}

	/** Whether the block must no longer be served at {@code now}. */
	boolean expired(long now) {
		return this.expiresAt != Long.MAX_VALUE && now - this.expiresAt > 0;
	}

	long issued() {
		return Math.min(this.taken, this.size);
	}

	long left() {
		return this.size - issued();
	}

}
