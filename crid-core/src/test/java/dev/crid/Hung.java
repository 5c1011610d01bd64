package dev.crid;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A registry answer that never returns until the test releases it, deaf to interrupts, as
 * a read on a dead socket without a timeout; then delegates.
 */
final class Hung implements RecordingRegistry.Answer {

	private final CountDownLatch release = new CountDownLatch(1);

	private final AtomicInteger entered = new AtomicInteger();

	@Override
	public long answer(Registry delegate, long timestamp, long blockSize) {
		this.entered.incrementAndGet();
		awaitUninterruptibly(this.release);
		return delegate.allocate(timestamp, blockSize);
	}

	/** Lets every held call, and every later one, return. */
	void release() {
		this.release.countDown();
	}

	int entered() {
		return this.entered.get();
	}

	/**
	 * Waits for the latch however often the thread is interrupted, and keeps the
	 * interrupt.
	 */
	static void awaitUninterruptibly(CountDownLatch latch) {
		boolean interrupted = false;
		while (true) {
			try {
				latch.await();
				break;
			}
			catch (InterruptedException ex) {
				interrupted = true;
			}
		}
		if (interrupted) {
			Thread.currentThread().interrupt();
		}
	}

}
