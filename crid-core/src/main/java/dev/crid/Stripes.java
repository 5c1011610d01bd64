package dev.crid;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import org.jspecify.annotations.Nullable;

/**
 * One {@link Slice} per stripe, a stripe for each thread by its id: threads on different stripes never
 * touch the same counter, so handing out IDs scales with cores instead of contending for one. There are
 * a few stripes per core, not one per thread, so thousands of (virtual) threads share them.
 */
final class Stripes {

	private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(Slice[].class);

	/** Slots between two stripes' entries, so that they sit on different cache lines. */
	private static final int SPACING = 16;

	private static final int SPACING_BITS = 4;

	private final Slice[] slots;

	private final int mask;

	private final int count;

	Stripes(int cores) {
		int wanted = Math.max(2, Math.min(64, 2 * cores));
		this.count = Integer.highestOneBit(wanted - 1) << 1;
		this.mask = this.count - 1;
		this.slots = new Slice[this.count * SPACING];
	}

	int count() {
		return this.count;
	}

	/**
	 * The slots, for the node's fast path: read straight from the node, they spare it a load on the path
	 * every ID takes.
	 */
	Slice[] slots() {
		return this.slots;
	}

	/** The mask that picks a stripe from a thread id, for {@link #slotOf(int)}. */
	int mask() {
		return this.mask;
	}

	/**
	 * The current thread's slot among stripes of the given mask, by its id. Thread ids are handed out in
	 * turn, so threads started one after the other land on stripes one after the other.
	 */
	@SuppressWarnings("deprecation") // Thread.threadId() is Java 19
	static int slotOf(int mask) {
		return ((int) Thread.currentThread().getId() & mask) << SPACING_BITS;
	}

	static @Nullable Slice get(@Nullable Slice[] slots, int slot) {
		return (Slice) SLOTS.getAcquire(slots, slot);
	}

	/** Puts a slice in place of the expected one; {@code false} if another thread changed it first. */
	boolean replace(int slot, @Nullable Slice expected, @Nullable Slice slice) {
		return SLOTS.compareAndSet(this.slots, slot, expected, slice);
	}

	/**
	 * Puts {@link Slice#CLOSED} in every stripe for good and returns the offsets that were still set aside
	 * in them. A slot that holds it is never replaced, since every change of a slot is a compare-and-set.
	 */
	long close() {
		long unused = 0;
		for (int slot = 0; slot < this.slots.length; slot += SPACING) {
			Slice slice = (Slice) SLOTS.getAndSet(this.slots, slot, Slice.CLOSED);
			if (slice != null) {
				unused += slice.unused();
			}
		}
		return unused;
	}

	/** The offsets set aside in every stripe and not handed out yet. */
	long unused() {
		long unused = 0;
		for (int slot = 0; slot < this.slots.length; slot += SPACING) {
			Slice slice = get(this.slots, slot);
			if (slice != null) {
				unused += slice.unused();
			}
		}
		return unused;
	}

}
