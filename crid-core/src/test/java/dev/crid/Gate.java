package dev.crid;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A registry answer that holds every call until the test opens the gate, then delegates.
 * Counts the calls that entered and notices when a held call is interrupted.
 */
final class Gate implements RecordingRegistry.Answer {

	private final CountDownLatch open = new CountDownLatch(1);

	private final AtomicInteger entered = new AtomicInteger();

	private final AtomicInteger interrupted = new AtomicInteger();

	@Override
	public long answer(Registry delegate, long timestamp, long blockSize) {
		this.entered.incrementAndGet();
		try {
			if (!this.open.await(30, TimeUnit.SECONDS)) {
				throw new IllegalStateException("The test never opened the gate");
			}
		}
		catch (InterruptedException ex) {
			this.interrupted.incrementAndGet();
			Thread.currentThread().interrupt();
			throw new RegistryException("Interrupted at the gate", ex);
		}
		return delegate.allocate(timestamp, blockSize);
	}

	void open() {
		this.open.countDown();
	}

	int entered() {
		return this.entered.get();
	}

	int interrupted() {
		return this.interrupted.get();
	}

}
