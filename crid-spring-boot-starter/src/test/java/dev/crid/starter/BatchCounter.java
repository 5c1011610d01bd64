package dev.crid.starter;

import java.util.concurrent.atomic.AtomicInteger;

import org.hibernate.SessionEventListener;

/**
 * Counts the JDBC batches Hibernate executes, in every session (registered through
 * {@code hibernate.session.events.auto}).
 */
public class BatchCounter implements SessionEventListener {

	private static final AtomicInteger batches = new AtomicInteger();

	/**
	 * Hibernate creates one per session.
	 */
	public BatchCounter() {
	}

	static void reset() {
		batches.set(0);
	}

	static int batches() {
		return batches.get();
	}

	@Override
	public void jdbcExecuteBatchStart() {
		batches.incrementAndGet();
	}

}
