package dev.crid;

import org.jspecify.annotations.Nullable;

/**
 * The stock of a node without a runway: the next block and nothing more. It is asked for
 * when the current block reaches its trigger ({@link Pacing}), at once when the trigger
 * is the block's first ID, and by a caller who found nothing to serve; its blocks never
 * expire. Not thread-safe: the supply's lock guards it.
 */
final class NextBlockOnly extends Stock {

	private final Pacing pacing;

	NextBlockOnly(Pacing pacing) {
		this.pacing = pacing;
	}

	@Override
	@Nullable Block take(long now) {
		return null;
	}

	@Override
	long stocked() {
		return 0;
	}

	@Override
	void received(Block block) {
		ready(block);
	}

	@Override
	long wanted(long now) {
		return hasNext() ? 0 : this.pacing.allocationSize();
	}

	@Override
	boolean restocksOnInstall(Block installed) {
		return installed.trigger == 0;
	}

	@Override
	boolean blocksExpire() {
		return false;
	}

}
