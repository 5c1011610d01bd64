package dev.crid;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The gate every registry call of a node passes: a call begins only while the node is
 * open and still waits for the call's reservation, and closing waits, a bounded time, for
 * the calls under way.
 *
 * <p>
 * Invariant: no registry call begins after {@link #close} returned, from any thread. A
 * call checks that the node is open and its reservation not given up on while it holds
 * the read lock, and keeps the lock until it returns; {@code close} marks the node closed
 * first and then takes the write lock, which it gets only once every call that passed the
 * check has returned, or gives up after its bound (a call that ignores its interrupt is
 * still under way then, and began before {@code close} returned). Whether the node is
 * closed is kept here alone: {@link BlockSupply} closes the gate under its lock, and
 * every part reads it from here.
 */
final class CallGate {

	private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();

	private volatile boolean closed;

	/**
	 * Lets a call for the given reservation begin, or refuses it: the node closed, or
	 * gave up on the reservation. A call let in must {@link #exit} when it returns.
	 */
	boolean enter(BlockReserver.Attempt attempt) {
		this.lock.readLock().lock();
		if (this.closed || attempt.givenUp()) {
			this.lock.readLock().unlock();
			return false;
		}
		return true;
	}

	/** A call let in has returned. */
	void exit() {
		this.lock.readLock().unlock();
	}

	/** Whether the node closed: read without a lock. */
	boolean isClosed() {
		return this.closed;
	}

	/** No call begins from now on. */
	void close() {
		this.closed = true;
	}

	/**
	 * Waits, at most the given time, until no call is under way; returns whether none is.
	 */
	boolean awaitCalls(long nanos) {
		try {
			if (this.lock.writeLock().tryLock(Math.max(0, nanos), TimeUnit.NANOSECONDS)) {
				this.lock.writeLock().unlock();
				return true;
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		return false;
	}

}
