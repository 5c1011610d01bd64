package dev.crid;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import org.jspecify.annotations.Nullable;

/**
 * One {@link Slice} per stripe, a stripe for each thread by its id: threads on different
 * stripes never touch the same counter, so handing out IDs scales with cores instead of
 * contending for one. There are a few stripes per core, not one per thread, so thousands
 * of (virtual) threads share them.
 */
final class Stripes {

	private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(Slice[].class);

	/** Slots between two stripes' entries, so that they sit on different cache lines. */
	private static final int SPACING = 16;

	private static final int SPACING_BITS = 4;

	/**
	 * Stripes per node: a few per core, a power of two. The cores are counted once per
	 * JVM, so that the mask is a constant the JIT folds into the path every ID takes
	 * instead of a field it loads.
	 */
	static final int COUNT = count(Runtime.getRuntime().availableProcessors());

	/** Picks a stripe from a thread id. */
	static final int MASK = COUNT - 1;

	private final Slice[] slots = new Slice[COUNT * SPACING];

	private static int count(int cores) {
		int wanted = Math.max(2, Math.min(64, 2 * cores));
		return Integer.highestOneBit(wanted - 1) << 1;
	}

	int count() {
		return COUNT;
	}

	/**
	 * The slots, for the node's fast path: read straight from the node, they spare it a
	 * load on the path every ID takes.
	 */
	Slice[] slots() {
		return this.slots;
	}

	/**
	 * The current thread's slot, by its id. Thread ids are handed out in turn, so threads
	 * started one after the other land on stripes one after the other.
	 */
	static int slotOf() {
		return slotOf(Thread.currentThread());
	}

	/** The slot of the given thread's stripe. */
	@SuppressWarnings("deprecation") // Thread.threadId() is Java 19
	static int slotOf(Thread thread) {
		return ((int) thread.getId() & MASK) << SPACING_BITS;
	}

	static @Nullable Slice get(@Nullable Slice[] slots, int slot) {
		return (Slice) SLOTS.getAcquire(slots, slot);
	}

	/**
	 * Puts a slice in place of the expected one; {@code false} if another thread changed
	 * it first.
	 */
	boolean replace(int slot, @Nullable Slice expected, @Nullable Slice slice) {
		return SLOTS.compareAndSet(this.slots, slot, expected, slice);
	}

	/**
	 * Puts {@link Slice#CLOSED} in every stripe for good and returns the offsets that
	 * were still set aside in them. A slot that holds it is never replaced, since every
	 * change of a slot is a compare-and-set.
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
