package dev.crid;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * Runs threads one at a time, in an order drawn from a seed, on a clock that moves only
 * when no thread can run: a schedule of a node's parts is then a function of the seed,
 * and a failing one can be replayed.
 *
 * <p>
 * Every actor is a real thread, but it runs only while it holds the baton, which it hands
 * back at every point where it would wait ({@link #block}): a sleep, a wait for a future,
 * a registry call. Between two such points it runs alone, so the schedules explored are
 * the orders of those points, not of memory accesses.
 */
final class SimulatedScheduler {

	/**
	 * Where the virtual monotonic clock starts: far from 0, which the node reads as "no
	 * call".
	 */
	static final long START_NANOS = TimeUnit.SECONDS.toNanos(1_000);

	/**
	 * How long an actor may run before it blocks: past this, it is taken to wait on
	 * something outside.
	 */
	private static final long RUN_LIMIT_MILLIS = 20_000;

	/**
	 * The low bits of a thread id that decide its stripe, for any number of stripes a
	 * node may have.
	 */
	private static final int ID_BITS = 63;

	final Random random;

	private final ReentrantLock lock = new ReentrantLock();

	private final Condition changed = this.lock.newCondition();

	private final List<Actor> actors = new ArrayList<>();

	private volatile long now = START_NANOS;

	/**
	 * Counts the steps of the schedule: every run of an actor and every decision is one.
	 */
	private long step;

	private Actor running;

	SimulatedScheduler(long seed) {
		this.random = new Random(seed);
	}

	long now() {
		return this.now;
	}

	long step() {
		this.lock.lock();
		try {
			return ++this.step;
		}
		finally {
			this.lock.unlock();
		}
	}

	/** Starts an actor; it runs only when the schedule picks it. */
	Actor start(String name, Runnable body) {
		Actor actor = new Actor(name);
		Runnable run = () -> {
			actor.awaitBaton();
			try {
				body.run();
			}
			catch (Throwable ex) {
				actor.crashed = ex;
			}
			finally {
				actor.finish();
			}
		};
		// A node picks a thread's stripe from the low bits of its id: give the n-th actor
		// the same low bits in every run, so that a seed replays the same schedule
		// whatever threads the JVM made before.
		int wanted;
		this.lock.lock();
		try {
			wanted = this.actors.size() & ID_BITS;
		}
		finally {
			this.lock.unlock();
		}
		Thread thread = new ActorThread(run, "sim-" + name, actor);
		while ((threadId(thread) & ID_BITS) != wanted) {
			thread = new ActorThread(run, "sim-" + name, actor);
		}
		thread.setDaemon(true);
		actor.thread = thread;
		this.lock.lock();
		try {
			this.actors.add(actor);
		}
		finally {
			this.lock.unlock();
		}
		thread.start();
		return actor;
	}

	/**
	 * Called by the running actor: hands the baton back and waits until the schedule
	 * picks it again, which it may once {@code wake} is true, the clock reaches
	 * {@code wakeAt}, or (when {@code interruptible}) the thread is interrupted.
	 */
	void block(BooleanSupplier wake, long wakeAt, boolean interruptible) {
		this.lock.lock();
		try {
			Actor me = this.running;
			if (me == null || me.thread != Thread.currentThread()) {
				throw new IllegalStateException("block() called outside the running actor: " + Thread.currentThread());
			}
			me.wake = wake;
			me.wakeAt = wakeAt;
			me.interruptible = interruptible;
			me.interruptPending = Thread.currentThread().isInterrupted();
			this.running = null;
			this.changed.signalAll();
			while (this.running != me) {
				this.changed.awaitUninterruptibly();
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	/** Sleeps on the virtual clock; an interrupt ends it. */
	void sleep(long nanos) throws InterruptedException {
		block(() -> false, this.now + Math.max(nanos, 0), true);
		if (Thread.interrupted()) {
			throw new InterruptedException("interrupted in a simulated sleep");
		}
	}

	/** Waits on the virtual clock for a future; an interrupt ends it. */
	boolean await(CompletableFuture<?> future, long nanos) throws InterruptedException {
		if (!future.isDone() && nanos > 0) {
			block(future::isDone, this.now + nanos, true);
		}
		if (Thread.interrupted()) {
			throw new InterruptedException("interrupted in a simulated wait");
		}
		return future.isDone();
	}

	/** The actors that could run now. */
	List<Actor> runnable() {
		this.lock.lock();
		try {
			List<Actor> runnable = new ArrayList<>();
			for (Actor actor : this.actors) {
				if (!actor.done && actor.canRun(this.now)) {
					runnable.add(actor);
				}
			}
			return runnable;
		}
		finally {
			this.lock.unlock();
		}
	}

	/** Runs one actor until it blocks or ends. */
	void run(Actor actor) {
		this.lock.lock();
		try {
			this.step++;
			this.running = actor;
			actor.started = true;
			this.changed.signalAll();
			long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(RUN_LIMIT_MILLIS);
			while (this.running == actor) {
				long left = deadline - System.nanoTime();
				if (left <= 0) {
					throw new IllegalStateException("Actor " + actor.name + " ran " + RUN_LIMIT_MILLIS
							+ " ms without blocking: it waits on something the schedule does not control");
				}
				this.changed.awaitNanos(left);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Moves the clock to the earliest time an actor waits for; returns {@code false} if
	 * none waits for one.
	 */
	boolean advanceClock() {
		return advanceClockBy(Long.MAX_VALUE);
	}

	/**
	 * Moves the clock on by the given time, but never past the earliest time an actor
	 * waits for, so that no actor is woken late; returns {@code false} if it could not
	 * move.
	 */
	boolean advanceClockBy(long nanos) {
		this.lock.lock();
		try {
			long earliest = Long.MAX_VALUE;
			for (Actor actor : this.actors) {
				if (!actor.done && actor.started && actor.wakeAt != Long.MAX_VALUE) {
					earliest = Math.min(earliest, actor.wakeAt);
				}
			}
			long target = (nanos == Long.MAX_VALUE) ? earliest : Math.min(this.now + nanos, earliest);
			if (target == Long.MAX_VALUE || target - this.now <= 0) {
				return false;
			}
			this.now = target;
			this.step++;
			return true;
		}
		finally {
			this.lock.unlock();
		}
	}

	List<Actor> actors() {
		this.lock.lock();
		try {
			return List.copyOf(this.actors);
		}
		finally {
			this.lock.unlock();
		}
	}

	@SuppressWarnings("deprecation") // Thread.threadId() is Java 19
	private static long threadId(Thread thread) {
		return thread.getId();
	}

	/**
	 * An actor's thread: tells the schedule of an interrupt when it is made, by the
	 * running actor.
	 */
	private final class ActorThread extends Thread {

		private final Actor actor;

		ActorThread(Runnable body, String name, Actor actor) {
			super(body, name);
			this.actor = actor;
		}

		@Override
		public void interrupt() {
			SimulatedScheduler.this.lock.lock();
			try {
				this.actor.interruptPending = true;
			}
			finally {
				SimulatedScheduler.this.lock.unlock();
			}
			super.interrupt();
		}

	}

	/** One thread of the schedule. */
	final class Actor {

		final String name;

		volatile Thread thread;

		volatile boolean done;

		volatile Throwable crashed;

		boolean started;

		BooleanSupplier wake = () -> true;

		long wakeAt = Long.MAX_VALUE;

		boolean interruptible;

		/**
		 * Whether the thread has an interrupt it has not taken yet. Kept here rather than
		 * read from the thread, whose flag a wait on a condition clears and sets again at
		 * moments of its own.
		 */
		boolean interruptPending;

		Actor(String name) {
			this.name = name;
		}

		boolean canRun(long now) {
			return !this.started || this.wake.getAsBoolean() || now - this.wakeAt >= 0
					|| (this.interruptible && this.interruptPending);
		}

		private void awaitBaton() {
			SimulatedScheduler.this.lock.lock();
			try {
				while (SimulatedScheduler.this.running != this) {
					SimulatedScheduler.this.changed.awaitUninterruptibly();
				}
			}
			finally {
				SimulatedScheduler.this.lock.unlock();
			}
		}

		private void finish() {
			SimulatedScheduler.this.lock.lock();
			try {
				this.done = true;
				if (SimulatedScheduler.this.running == this) {
					SimulatedScheduler.this.running = null;
				}
				SimulatedScheduler.this.changed.signalAll();
			}
			finally {
				SimulatedScheduler.this.lock.unlock();
			}
		}

		@Override
		public String toString() {
			return this.name;
		}

	}

}
