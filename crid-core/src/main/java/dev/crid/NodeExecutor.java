package dev.crid;

import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.jspecify.annotations.Nullable;

/**
 * The threads a node's reservations run on: its own, or the executor given to the
 * builder.
 *
 * <p>
 * Invariants: the node's own executor runs the reservations from a queue on
 * {@value #OWN_THREADS} threads (the one in flight, and one that ends its run or tells
 * the failure handler), and one more for each call given up on that still holds its
 * thread, so no number of calls that never return keeps it from running a fresh one; its
 * threads end when idle for {@link NodeSettings#idleThreadTimeout()}. {@link #close()}
 * returns only once no registry call is under way and the node's own threads have ended,
 * or after its bound. An executor given to the builder is never shut down.
 */
final class NodeExecutor {

	private static final AtomicInteger threadNumbers = new AtomicInteger();

	/** Threads of the node's own executor beside those held by calls given up on. */
	static final int OWN_THREADS = 2;

	/** The longest {@link #close()} waits for the node's threads to stop. */
	static final long CLOSE_WAIT_NANOS = TimeUnit.SECONDS.toNanos(1);

	private final Executor executor;

	private final @Nullable ThreadPoolExecutor own;

	private final CallGate gate;

	private final Timing timing;

	private final long timeoutNanos;

	NodeExecutor(NodeSettings settings, CallGate gate) {
		this.gate = gate;
		this.timing = settings.timing();
		this.timeoutNanos = settings.allocationTimeout().toNanos();
		if (settings.prefetchExecutor() != null) {
			this.executor = settings.prefetchExecutor();
			this.own = null;
		}
		else {
			this.own = new ThreadPoolExecutor(OWN_THREADS, OWN_THREADS, settings.idleThreadTimeout().toNanos(),
					TimeUnit.NANOSECONDS, new LinkedBlockingQueue<>(), (task) -> new NodeThread(task, this));
			this.own.allowCoreThreadTimeOut(true);
			this.executor = this.own;
		}
	}

	/** Whether the reservations run on the node's own threads. */
	boolean isOwn() {
		return this.own != null;
	}

	/**
	 * Hands a task to the executor.
	 * @throws Throwable whatever the executor throws: a rejection, or an {@link Error}
	 * such as "unable to create native thread"
	 */
	void execute(Runnable task) {
		this.executor.execute(task);
	}

	/**
	 * Keeps the node's own executor at {@link #OWN_THREADS} threads beside the given
	 * number of calls given up on that still hold theirs; called under the supply's lock
	 * whenever that number changes.
	 */
	void stuckCallsChanged(int stuckCalls) {
		if (this.own == null) {
			return;
		}
		int size = OWN_THREADS + stuckCalls;
		if (size > this.own.getMaximumPoolSize()) {
			this.own.setMaximumPoolSize(size);
			this.own.setCorePoolSize(size);
		}
		else {
			this.own.setCorePoolSize(size);
			this.own.setMaximumPoolSize(size);
		}
	}

	/**
	 * Stops the node's own threads, interrupting them, and waits for the registry calls
	 * under way and for the threads to end, at most the allocation timeout or a second,
	 * whichever is less, together; on one of the node's own threads (a failure handler
	 * that closes the node) it waits for the calls of the others but not for the threads,
	 * its own among them, and leaves itself uninterrupted. An executor given to the
	 * builder is left running. A registry call that ignores the interrupt ends when it
	 * returns, and no call begins after this returns.
	 */
	void close() {
		long deadline = this.timing.nanoTime() + Math.min(this.timeoutNanos, CLOSE_WAIT_NANOS);
		Thread current = Thread.currentThread();
		boolean onOwnThread = current instanceof NodeThread thread && thread.executor == this;
		if (this.own != null) {
			boolean interruptedBefore = current.isInterrupted();
			this.own.shutdownNow();
			if (onOwnThread && !interruptedBefore) {
				// The interrupt releases registry calls; this thread is in none but runs
				// the handler that closes the node, which must be able to go on (write to
				// a channel, say) after close() returns.
				Thread.interrupted();
			}
		}
		this.gate.awaitCalls(deadline - this.timing.nanoTime());
		if (this.own == null || onOwnThread) {
			return; // a thread cannot end while it waits for itself
		}
		try {
			this.own.awaitTermination(Math.max(0, deadline - this.timing.nanoTime()), TimeUnit.NANOSECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/** A thread of a node's own executor: a daemon, named for what it does. */
	private static final class NodeThread extends Thread {

		final NodeExecutor executor;

		NodeThread(Runnable task, NodeExecutor executor) {
			super(task, "crid-prefetch-" + threadNumbers.incrementAndGet());
			this.executor = executor;
			setDaemon(true);
		}

	}

}
