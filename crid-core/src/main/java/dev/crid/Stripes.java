package dev.crid;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * One {@link Slice} per stripe, a stripe for each thread by its id: threads on different stripes never
 * touch the same counter, so handing out IDs scales with cores instead of contending for one. There are
 * a few stripes per core, not one per thread, so thousands of (virtual) threads share them.
 */
final class Stripes {

	/** Slots between two stripes' entries, so that they sit on different cache lines. */
	private static final int SPACING = 16;

	private final AtomicReferenceArray<Slice> slices;

	private final int bits;

	private final int count;

	Stripes(int cores) {
		int wanted = Math.max(2, Math.min(64, 2 * cores));
		this.bits = 32 - Integer.numberOfLeadingZeros(wanted - 1);
		this.count = 1 << this.bits;
		this.slices = new AtomicReferenceArray<>(this.count * SPACING);
	}

	int count() {
		return this.count;
	}

	/** The current thread's stripe: a slot of {@link #get}, spread by a multiplicative hash of its id. */
	@SuppressWarnings("deprecation") // Thread.threadId() is Java 19
	int forCurrentThread() {
		long id = Thread.currentThread().getId();
		return (int) ((id * 0x9E3779B97F4A7C15L) >>> (64 - this.bits)) * SPACING;
	}

	Slice get(int slot) {
		return this.slices.get(slot);
	}

	/** Puts a slice in place of the expected one; {@code false} if another thread changed it first. */
	boolean replace(int slot, Slice expected, Slice slice) {
		return this.slices.compareAndSet(slot, expected, slice);
	}

	void set(int slot, Slice slice) {
		this.slices.set(slot, slice);
	}

	/** Empties every stripe and returns the offsets that were still set aside in them. */
	long clear() {
		long unused = 0;
		for (int slot = 0; slot < this.slices.length(); slot += SPACING) {
			Slice slice = this.slices.getAndSet(slot, null);
			if (slice != null) {
				unused += slice.unused();
			}
		}
		return unused;
	}

	/** The offsets set aside in every stripe and not handed out yet; of {@code block} only, if not null. */
	long unused(Block block) {
		long unused = 0;
		for (int slot = 0; slot < this.slices.length(); slot += SPACING) {
			Slice slice = this.slices.get(slot);
			if (slice != null && (block == null || slice.block == block)) {
				unused += slice.unused();
			}
		}
		return unused;
	}

}
