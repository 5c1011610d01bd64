package dev.crid;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Part of a block set aside for the threads of one stripe: offsets {@code [cursor, end)}
 * of the block, handed out with an atomic increment that only those threads contend for.
 * What a slice still holds when nobody uses it again is a gap, never a duplicate: the
 * block's counter has moved past it.
 */
final class Slice {

	private static final VarHandle CURSOR;

	static {
		try {
			CURSOR = MethodHandles.lookup().findVarHandle(Slice.class, "cursor", long.class);
		}
		catch (ReflectiveOperationException ex) {
			throw new ExceptionInInitializerError(ex);
		}
	}

	/** Marks a stripe that one of its threads is refilling: it holds no offsets. */
	static final Slice REFILLING = new Slice(Block.empty(), 0, 0);

	/**
	 * Marks every stripe of a closed node: it holds no offsets, and nothing replaces it.
	 */
	static final Slice CLOSED = new Slice(Block.empty(), 0, 0);

	/** The first ID of the block, so that an ID is {@code firstId + offset}. */
	final long firstId;

	/** The offset past the slice's last. */
	final long end;

	@SuppressWarnings("unused") // written through CURSOR
	private volatile long cursor;

	Slice(Block block, long start, long end) {
		this.firstId = block.firstId;
		this.end = end;
		this.cursor = start;
	}

	/** Takes the next offset; one at or past {@link #end} means the slice is used up. */
	long take() {
		return (long) CURSOR.getAndAdd(this, 1L);
	}

	/** How many offsets are still to be handed out. */
	long unused() {
		return Math.max(0, this.end - this.cursor);
	}

}
