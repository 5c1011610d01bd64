package dev.crid;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

/**
 * One seeded schedule of a node on its own executor (no {@code prefetchExecutor} given),
 * with real threads and real, short, time: what {@link ScheduleRun}, whose executor is
 * scripted, cannot see. The seed picks the node's settings (allocation timeouts of 200 to
 * 300 ms, long enough for a loaded machine to run a thread within them, or of minutes; a
 * short idle timeout for its threads), what each registry call does, what the callers do
 * and when, how the failure handler behaves (it may throw, or take up to 100 ms, as one
 * that reports each failure far away does: its thread stays busy after the reservation
 * ended), whether a quiet outage comes first, and how the node ends: closed by a caller
 * while a registry call hangs, closed from the failure handler on the node's own thread,
 * or dropped without {@code close()}. The interleaving of the threads is the machine's,
 * so a failing seed usually fails again, not always.
 *
 * <p>
 * Checked against a model: the node's own threads (those of the schedule's thread group,
 * which every thread the node starts joins, named {@code crid-prefetch-}) are never more
 * than two, at work in the registry or the failure handler, or alive; {@code close()}
 * returns within the longest it may wait for them, however long the allocation timeout
 * and even while a registry call hangs deaf to interrupts, and called from the failure
 * handler it waits for nothing and leaves the handler's thread uninterrupted; once closed
 * and its calls returned, no thread of the node is left, and dropped, none is left after
 * its idle timeout; after an outage that nobody called through, the node asks for blocks
 * of its configured size, because the pauses between retries are no registry latency. And
 * the checks of {@link ScheduleRun} that apply: no ID repeats or lies outside a block the
 * registry committed, every caller returns within its budget, no registry call starts
 * after {@code close()} returned nor on a caller's thread, at most two are out at once, a
 * call begun after {@code close()} returned is refused, and once the registry heals a
 * caller gets an ID again.
 */
final class OwnExecutorScheduleRun {

	/** How the node names its own threads. */
	private static final String THREAD_PREFIX = "crid-prefetch-";

	/** The longest {@code close()} waits for the node's threads. */
	private static final long CLOSE_WAIT_NANOS = NodeExecutor.CLOSE_WAIT_NANOS;

	/**
	 * What a loaded machine may add to any wait of the model: two cores shared by several
	 * schedules at once, garbage collection and compilation. The node's own work on these
	 * paths takes microseconds.
	 */
	private static final long SLACK_NANOS = TimeUnit.MILLISECONDS.toNanos(300);

	/**
	 * How long {@code close()} called from the failure handler may take: it waits for no
	 * thread, so only its own work and a loaded machine count. A wait for the node's
	 * threads would take the allocation timeout, a second at most: in schedules with
	 * timeouts of minutes a second, four times this.
	 */
	private static final long HANDLER_CLOSE_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

	/**
	 * What the node's own work around a registry call adds to the latency it measures
	 * (reading clocks, taking its lock): microseconds, unless the thread is descheduled
	 * on a loaded machine.
	 */
	private static final long ATTEMPT_SLACK_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

	/**
	 * How often the schedule asks for its first ID before it counts the node as wedged.
	 */
	private static final int FIRST_NEXT_ID_TRIES = 5;

	/**
	 * How long a hung call waits for the schedule to release it before it gives up:
	 * never, in a sound run.
	 */
	private static final long NEVER_RELEASED_SECONDS = 60;

	private final long seed;

	private final Random random;

	private final ThreadGroup group;

	private final long timeoutNanos;

	private final long idleNanos;

	private final long blockSize;

	private final HandlerKind handlerKind;

	private final Ending ending;

	/** The node's runway, or zero. */
	private final Duration runway;

	/** Failures in a row in the quiet outage that opens the schedule; 0 for none. */
	private final int outageFailures;

	private final ScriptedRegistry registry;

	private final CridNode node;

	private final List<String> violations = Collections.synchronizedList(new ArrayList<>());

	private final Set<Long> ids = ConcurrentHashMap.newKeySet();

	/** The node's threads at work in the registry or the failure handler right now. */
	private final Set<Thread> atWork = ConcurrentHashMap.newKeySet();

	private final List<Thread> callers = Collections.synchronizedList(new ArrayList<>());

	private final Random handlerRandom;

	/** Set once the failure handler is to close the node, on its next call. */
	private final AtomicBoolean handlerCloses = new AtomicBoolean();

	private final CountDownLatch handlerClosed = new CountDownLatch(1);

	private volatile boolean closeReturned;

	/**
	 * When the node last did something: a registry call or the failure handler returned,
	 * a caller was served.
	 */
	private volatile long lastActivity = System.nanoTime();

	/**
	 * Whether the quiet outage's check of pacing could tell (see {@link #quietOutage()}).
	 */
	private volatile boolean pacingChecked;

	/**
	 * The slack of a real-time bound: {@link #SLACK_NANOS}, and however long the machine
	 * held threads up over the last ten seconds, which a loaded machine does beyond any
	 * fixed slack. A bound on a wait of one thread adds the time that thread waited for a
	 * core ({@link SchedulingLag#waitedForCore()}).
	 */
	private static long slack() {
		return SLACK_NANOS + SchedulingLag.recentMax(TimeUnit.SECONDS.toNanos(10));
	}

	OwnExecutorScheduleRun(long seed) {
		this.seed = seed;
		this.random = new Random(seed);
		this.group = new ThreadGroup("schedule-" + seed);
		boolean longTimeout = this.random.nextInt(3) == 0;
		this.timeoutNanos = longTimeout ? TimeUnit.MINUTES.toNanos(1 + this.random.nextInt(10))
				: TimeUnit.MILLISECONDS.toNanos(200 + this.random.nextInt(101));
		this.idleNanos = TimeUnit.MILLISECONDS.toNanos(50 + this.random.nextInt(101));
		this.blockSize = 4 + this.random.nextInt(12);
		// Five failures or more: the pauses between their retries (10 ms, doubling) keep
		// the first block longer than a quarter of a second, which a block must last for
		// the node not to grow the next.
		this.outageFailures = (this.random.nextInt(3) == 0) ? 5 + this.random.nextInt(2) : 0;
		// Pacing grows blocks only for a node that reserves ahead; the outage's check
		// wants a prefetch at once.
		long threshold = (this.outageFailures > 0) ? this.blockSize
				: new long[] { 0, this.blockSize / 2, this.blockSize }[this.random.nextInt(3)];
		this.handlerKind = HandlerKind.values()[this.random.nextInt(HandlerKind.values().length)];
		this.ending = Ending.values()[this.random.nextInt(Ending.values().length)];
		this.handlerRandom = new Random(this.random.nextLong());
		this.registry = new ScriptedRegistry(new Random(this.random.nextLong()));
		// A runway in one schedule of three without an outage (whose check of pacing
		// wants blocks of the configured size): short, so that its blocks expire and are
		// restocked while callers, hung calls and close() come and go.
		this.runway = (this.outageFailures == 0 && this.random.nextInt(3) == 0)
				? Duration.ofMillis(200 + this.random.nextInt(801)) : Duration.ZERO;
		CridNode built = CridNode.builder(this.registry)
			.clock(Clock.fixed(CridLayout.DEFAULT_EPOCH.plusSeconds(500), ZoneOffset.UTC))
			.blockSize(this.blockSize)
			.threshold(threshold)
			.allocationTimeout(Duration.ofNanos(this.timeoutNanos))
			.onPrefetchFailure(this::onPrefetchFailure)
			.runway(this.runway)
			.build();
		this.node = new CridNode(built.settings().with(Timing.SYSTEM, Duration.ofNanos(this.idleNanos), false));
	}

	/**
	 * Runs the schedule on a thread of its own group, so that every thread the node
	 * starts joins that group, and tells {@code done} when it has ended.
	 */
	void start(Runnable done) {
		Thread driver = new Thread(this.group, () -> {
			try {
				run();
			}
			finally {
				done.run();
			}
		}, "schedule-" + this.seed);
		driver.setDaemon(true);
		driver.start();
	}

	/** What the schedule found wrong; empty when nothing. */
	List<String> violations() {
		synchronized (this.violations) {
			return List.copyOf(this.violations);
		}
	}

	boolean hadOutage() {
		return this.outageFailures > 0;
	}

	boolean pacingChecked() {
		return this.pacingChecked;
	}

	private void run() {
		try {
			if (this.outageFailures > 0) {
				quietOutage();
			}
			busyCallers();
			switch (this.ending) {
				case CLOSE -> closeWhileACallHangs();
				case CLOSE_FROM_HANDLER -> closeFromTheFailureHandler();
				case DROP -> drop();
			}
		}
		catch (Throwable ex) {
			violate("the schedule itself failed: " + ex);
		}
		finally {
			this.registry.releaseAll();
			this.node.close();
			for (Thread caller : List.copyOf(this.callers)) {
				join(caller, System.nanoTime() + TimeUnit.SECONDS.toNanos(5));
				if (caller.isAlive()) {
					violate(caller.getName() + " never ended, even with the node closed and every call released");
				}
			}
		}
	}

	/**
	 * A quiet outage: the first block arrives, the prefetch it starts fails a few times
	 * while nobody calls, the node retries it in the background with growing pauses, and
	 * the registry comes back and answers at once. Pacing takes, for a reservation that
	 * failed before, the time from the start of its successful attempt: its registry call
	 * and the node's own work around it; for the first block, the time from the caller's
	 * request, which lies within the caller's {@code nextId()}. A block grows only when
	 * the block it replaces lasted less than twice the slowest of these, or less than a
	 * quarter of a second; the first block lasted at least from that {@code nextId()}'s
	 * return to the registry's answer for its successor. When that is twice the slowest
	 * the model allows, and a quarter of a second, the node must ask for blocks of the
	 * configured size still; had the pauses of the outage been counted, it would ask for
	 * twice as many.
	 */
	private void quietOutage() throws InterruptedException {
		this.registry.force(Fate.SUCCEED);
		for (int i = 0; i < this.outageFailures; i++) {
			this.registry.force(Fate.FAIL);
		}
		this.registry.force(Fate.SUCCEED);
		// A loaded machine may hold the node's thread up beyond the caller's timeout,
		// before the registry is called or after it answered: the first nextId() is tried
		// again then, and a node that serves none of several is wedged. The block that
		// lands may be the one the first try asked for: its time counts from then.
		long asked = System.nanoTime();
		int tries = 1;
		while (!call("the schedule", Op.NEXT_ID, 0)) {
			if (tries++ == FIRST_NEXT_ID_TRIES) {
				violate("the first nextId() before the outage failed " + FIRST_NEXT_ID_TRIES + " times in a row");
				return;
			}
		}
		long firstServed = System.nanoTime();
		Call answer = this.registry.awaitCall(this.outageFailures + 1, TimeUnit.SECONDS.toNanos(10));
		if (answer == null || !answer.returned.await(10, TimeUnit.SECONDS)) {
			violate("the prefetch never got through the outage of " + this.outageFailures + " failures");
			return;
		}
		// The node offers its block to no one: look until it is ready, the registry
		// having answered.
		long readyBy = System.nanoTime() + slack();
		while (!this.node.stats().nextBlockReady()) {
			if (System.nanoTime() - readyBy > 0) {
				violate("the block the registry answered after the outage was not ready within " + millis(slack()));
				return;
			}
			Thread.sleep(1);
		}
		// The node measures from just before its call until the block is in: after the
		// call it takes its lock, where a loaded machine may hold its thread a while.
		long seenReady = System.nanoTime();
		long slowestSample = Math.max(firstServed - asked, seenReady - answer.enteredAt + ATTEMPT_SLACK_NANOS);
		long firstBlockLasted = answer.returnedAt - firstServed;
		boolean served = false;
		for (int taken = 0; taken < 4 * this.blockSize && !served; taken++) {
			// the first block's IDs, until one of the outage's answer is served
			served = answer.holds(this.node.layout(), takeOne());
		}
		if (!served) {
			violate("the block the registry answered after the outage was never served");
			return;
		}
		long size = this.node.stats().allocationSize();
		if (firstBlockLasted >= Math.max(2 * slowestSample, Pacing.GROW_WITHIN_NANOS)) {
			this.pacingChecked = true;
			if (size != this.blockSize) {
				violate("after a quiet outage of " + this.outageFailures + " failed calls the node asks for " + size
						+ " IDs, not its block size " + this.blockSize + ": the successful call took "
						+ micros(answer.returnedAt - answer.enteredAt) + ", its block was seen ready "
						+ micros(seenReady - answer.enteredAt) + " after it began, and the first block's request ("
						+ tries + " tries) " + micros(firstServed - asked) + ", so pacing may have measured "
						+ micros(slowestSample) + " at most, and the first block lasted " + micros(firstBlockLasted)
						+ ", more than twice that and more than a quarter of a second");
			}
		}
	}

	private long takeOne() {
		try {
			long id = this.node.nextId();
			record(new long[] { id });
			return id;
		}
		catch (CridException ex) {
			return -1;
		}
	}

	/**
	 * Callers that take IDs one at a time, in bulk, in bursts of a block or warm the node
	 * up, with pauses, while the registry does what the schedule says; the node's threads
	 * are counted meanwhile. With minutes of timeout, a caller may wait for a hung call
	 * until the node closes or the registry is released.
	 */
	private void busyCallers() throws InterruptedException {
		if (this.random.nextInt(3) == 0) {
			// The registry refuses at first, as one that lacks a grant does until someone
			// adds it.
			for (int i = 2 + this.random.nextInt(4); i > 0; i--) {
				this.registry.force(Fate.REFUSE);
			}
		}
		int count = 1 + this.random.nextInt(3);
		CountDownLatch done = new CountDownLatch(count);
		long limit = 0;
		for (int i = 1; i <= count; i++) {
			Random callerRandom = new Random(this.random.nextLong());
			int calls = 2 + callerRandom.nextInt(4);
			long pauseNanos = Math.min(this.timeoutNanos, TimeUnit.MILLISECONDS.toNanos(40)) / 2;
			limit = Math.max(limit, calls * (2 * Math.min(this.timeoutNanos, CLOSE_WAIT_NANOS) + pauseNanos));
			String name = "caller-" + i;
			boolean startsUp = callerRandom.nextBoolean();
			startCaller(name, () -> {
				try {
					for (int call = 0; call < calls; call++) {
						TimeUnit.NANOSECONDS.sleep((long) (callerRandom.nextDouble() * pauseNanos));
						int kind = (call == 0 && startsUp) ? 7 : callerRandom.nextInt(10);
						if (kind < 5) {
							call(name, Op.NEXT_ID, 0);
						}
						else if (kind < 7) {
							call(name, Op.NEXT_IDS, callerRandom.nextInt(4));
						}
						else if (kind < 9) {
							// As a start-up does: warms the node up, and on failure tries
							// again at once, twice.
							for (int attempt = 0; attempt < 3 && !call(name, Op.WARM_UP, 0); attempt++) {
								// each failed warm-up may leave a reservation's thread
								// busy in the handler
							}
						}
						else {
							for (int taken = 0; taken <= this.blockSize && call(name, Op.NEXT_ID, 0); taken++) {
								// a burst that uses a block up
							}
						}
					}
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				finally {
					done.countDown();
				}
			});
		}
		// Callers of a node with minutes of timeout may wait for a hung call until the
		// ending releases them: the others are done within a few hundred milliseconds.
		long until = System.nanoTime()
				+ ((this.timeoutNanos > CLOSE_WAIT_NANOS) ? TimeUnit.MILLISECONDS.toNanos(300) : limit + slack());
		while (!done.await(5, TimeUnit.MILLISECONDS) && System.nanoTime() - until < 0) {
		}
	}

	/**
	 * Closes the node from a caller, mostly while a registry call hangs (deaf to
	 * interrupts or not): it must return within the longest it waits for the node's
	 * threads, the allocation timeout or a second, whichever is less, and at once when
	 * every call out hears its interrupt. Then every call is released, and no thread of
	 * the node may outlive that.
	 */
	private void closeWhileACallHangs() throws InterruptedException {
		if (this.random.nextInt(4) != 0) {
			this.registry.force(this.random.nextBoolean() ? Fate.HANG : Fate.DEAF_HANG);
			if (this.registry.outstanding() == 0) {
				startCaller("prober", () -> {
					// Takes IDs until the node calls the registry, which hangs; with
					// minutes of timeout it waits in that call until the node closes.
					while (this.registry.outstanding() == 0 && !this.node.isClosed()) {
						call("prober", Op.NEXT_ID, 0);
					}
				});
				this.registry.awaitOutstanding(TimeUnit.SECONDS.toNanos(2));
			}
		}
		CountDownLatch closed = new CountDownLatch(1);
		long bound = Math.min(this.timeoutNanos, CLOSE_WAIT_NANOS) + slack();
		long began = System.nanoTime();
		startCaller("closer", () -> {
			this.node.close();
			this.closeReturned = true;
			closed.countDown();
		});
		boolean returned = closed.await(bound, TimeUnit.NANOSECONDS);
		long took = System.nanoTime() - began;
		boolean deaf = this.registry.deafCallBetween(began, began + took);
		if (!returned) {
			violate("close() took more than " + millis(bound) + " (the allocation timeout of "
					+ millis(this.timeoutNanos) + " or a second, whichever is less, and " + millis(slack())
					+ ") while a registry call hung" + (deaf ? " deaf to interrupts" : ""));
			this.registry.releaseAll();
			closed.await(10, TimeUnit.SECONDS);
		}
		else if (!deaf && took > slack()) {
			// Its interrupt ends every call and pause of the node's threads: nothing
			// holds it.
			violate("close() took " + millis(took) + " although every registry call out heard interrupts");
		}
		this.registry.releaseAll();
		threadsEnd(System.nanoTime() + slack(), "close() returned and every registry call was released");
	}

	/**
	 * Settles the node with the registry healed, then fails every call: the next
	 * background failure reaches the handler, which closes the node on the node's own
	 * thread. {@code close()} must return there at once (it must not wait for the thread
	 * it runs on), and leave the handler free to go on.
	 */
	private void closeFromTheFailureHandler() throws InterruptedException {
		healAndSettle();
		this.handlerCloses.set(true);
		this.registry.failAll();
		long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
		// warmUp() reserves, in the background, as soon as the block is used up, nextId()
		// reaches the trigger of a node that reserves ahead: either reservation's failure
		// reaches the handler.
		while (!this.node.isClosed() && System.nanoTime() - until < 0) {
			call("the schedule", Op.WARM_UP, 0);
			call("the schedule", Op.NEXT_ID, 0);
		}
		if (!this.handlerClosed.await(10, TimeUnit.SECONDS)) {
			violate("no background failure reached the failure handler, which was to close the node");
		}
		this.registry.releaseAll();
		threadsEnd(System.nanoTime() + slack(), "close() returned and every registry call was released");
	}

	/**
	 * Drops the node without {@code close()}: once the registry heals and the node has
	 * nothing left to do, its threads must end after its idle timeout.
	 */
	private void drop() throws InterruptedException {
		healAndSettle();
		// A healed registry answers at once: a node still at work after this long is one
		// that never rests.
		long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (true) {
			List<Thread> alive = nodeThreads();
			long deadline = this.lastActivity + this.idleNanos + slack();
			for (Thread thread : alive) {
				join(thread, deadline);
			}
			alive.removeIf((thread) -> !thread.isAlive());
			if (alive.isEmpty()) {
				return;
			}
			if (System.nanoTime() - (this.lastActivity + this.idleNanos + slack()) >= 0
					|| System.nanoTime() - giveUp >= 0) {
				violate("dropped without close(), the node kept " + names(alive) + " alive "
						+ millis(System.nanoTime() - this.lastActivity) + " after it last did anything; its idle "
						+ "timeout is " + millis(this.idleNanos));
				return;
			}
		}
	}

	/**
	 * Heals the registry, releases every call and waits for the callers; then a caller
	 * must get an ID within the longest pause between background retries and two timeouts
	 * (it may fail once at its deadline while the reservation in flight pauses).
	 */
	private void healAndSettle() throws InterruptedException {
		this.registry.heal();
		this.registry.releaseAll();
		for (Thread caller : List.copyOf(this.callers)) {
			join(caller, System.nanoTime() + 4 * Math.min(this.timeoutNanos, CLOSE_WAIT_NANOS) + slack());
		}
		long began = System.nanoTime();
		long bound = TimeUnit.MILLISECONDS.toNanos(RetryPolicy.MAX_DELAY_MILLIS)
				+ 2 * Math.min(this.timeoutNanos, CLOSE_WAIT_NANOS) + slack();
		while (!call("the schedule", Op.NEXT_ID, 0)) {
			if (System.nanoTime() - began > bound) {
				violate("after the registry healed, no caller got an ID within " + millis(bound));
				return;
			}
		}
	}

	/**
	 * Waits until the node's threads have ended, or the deadline has passed: then reports
	 * those left.
	 */
	private void threadsEnd(long deadline, String after) {
		List<Thread> alive = nodeThreads();
		for (Thread thread : alive) {
			join(thread, deadline);
		}
		alive.removeIf((thread) -> !thread.isAlive());
		if (!alive.isEmpty()) {
			violate(names(alive) + " still alive " + millis(slack()) + " after " + after);
		}
	}

	/**
	 * The failure handler: may take a while, throw, or close the node when the schedule
	 * says so.
	 */
	private void onPrefetchFailure(RuntimeException failure) {
		atWork("the failure handler");
		try {
			if (this.handlerCloses.compareAndSet(true, false)) {
				closeOnTheNodesThread();
				return;
			}
			switch (this.handlerKind) {
				case QUIET -> {
				}
				case SLOW -> {
					// Reports the failure somewhere far (a network call); the node's
					// thread waits meanwhile.
					long pause;
					synchronized (this.handlerRandom) {
						pause = 10 + this.handlerRandom.nextInt(91);
					}
					try {
						Thread.sleep(pause);
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
					}
				}
				case THROWS -> {
					int what;
					synchronized (this.handlerRandom) {
						what = this.handlerRandom.nextInt(3);
					}
					if (what == 0) {
						throw new AssertionError("a failure handler that throws an Error");
					}
					if (what == 1) {
						throw new IllegalStateException("a failure handler that throws");
					}
				}
			}
		}
		finally {
			this.atWork.remove(Thread.currentThread());
			this.lastActivity = System.nanoTime();
		}
	}

	private void closeOnTheNodesThread() {
		boolean interruptedBefore = Thread.currentThread().isInterrupted();
		long waitedBefore = SchedulingLag.waitedForCore();
		long began = System.nanoTime();
		try {
			this.node.close();
			this.closeReturned = true;
			long took = System.nanoTime() - began;
			long bound = HANDLER_CLOSE_NANOS + slack() + SchedulingLag.waitedForCore() - waitedBefore;
			if (took > bound) {
				violate("close() called from the failure handler on " + Thread.currentThread().getName() + " took "
						+ millis(took) + ", more than " + millis(bound) + " (with the time its thread waited for a "
						+ "core): it must not wait for the thread it runs on");
			}
			if (!interruptedBefore && Thread.currentThread().isInterrupted()) {
				violate("close() called from the failure handler left the handler's thread interrupted");
			}
		}
		finally {
			this.handlerClosed.countDown();
		}
	}

	/**
	 * Registry calls out at once: one for the reservation in flight, and one for each
	 * call given up on that has not returned.
	 */
	private void checkOutstanding(int out) {
		int stuck = this.node.stats().stuckCalls();
		if (out > 1 + stuck) {
			violate(out + " registry calls out at once, with " + stuck + " given up on: the node keeps one more at "
					+ "most");
		}
	}

	/**
	 * A thread of the node begins work: it must be one of the node's own. (How many are
	 * at work is the failure handler's business, which must return quickly; the registry
	 * calls out at once are checked by {@link #checkOutstanding}.)
	 */
	private void atWork(String where) {
		Thread current = Thread.currentThread();
		if (!current.getName().startsWith(THREAD_PREFIX) || current.getThreadGroup() != this.group) {
			violate(where + " ran on " + current.getName() + ", not on one of the node's own threads");
		}
		this.atWork.add(current);
	}

	/**
	 * The node's own threads alive now: the schedule's group holds every thread the node
	 * started.
	 */
	private List<Thread> nodeThreads() {
		Thread[] threads = new Thread[this.group.activeCount() + 16];
		int count = this.group.enumerate(threads, true);
		List<Thread> own = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			if (threads[i].getName().startsWith(THREAD_PREFIX) && threads[i].isAlive()) {
				own.add(threads[i]);
			}
		}
		return own;
	}

	private void startCaller(String name, Runnable body) {
		Thread caller = new Thread(this.group, () -> {
			try {
				body.run();
			}
			catch (Throwable ex) {
				violate(name + " ended with " + ex);
			}
		}, name);
		caller.setDaemon(true);
		this.callers.add(caller);
		caller.start();
	}

	/**
	 * Makes one call of the node and checks it: within its budget (an allocation timeout
	 * for each block it may wait for), a {@link CridException} if anything, and refused
	 * if it began after {@code close()} returned. Returns whether it was served.
	 */
	private boolean call(String caller, Op op, int count) {
		boolean afterClose = this.closeReturned;
		long waitedBefore = SchedulingLag.waitedForCore();
		long began = System.nanoTime();
		long[] got;
		try {
			got = switch (op) {
				case NEXT_ID -> new long[] { this.node.nextId() };
				case NEXT_IDS -> this.node.nextIds(count);
				case WARM_UP -> {
					this.node.warmUp();
					yield new long[0];
				}
			};
		}
		catch (CridException ex) {
			got = null;
		}
		catch (Throwable ex) {
			violate(caller + "'s " + op + " threw " + ex + ", not a CridException");
			return false;
		}
		long took = System.nanoTime() - began;
		long waitedForCore = SchedulingLag.waitedForCore() - waitedBefore;
		// nextIds() of up to three IDs touches two blocks at most (a block holds four or
		// more).
		long budget = ((op == Op.NEXT_IDS) ? 2 : 1) * this.timeoutNanos;
		if (took > budget + slack() + waitedForCore) {
			violate(caller + "'s " + op + " took " + millis(took) + ", more than its budget of " + millis(budget) + ", "
					+ millis(slack()) + " and the " + millis(waitedForCore)
					+ " its thread waited for a core meanwhile");
		}
		if (got == null) {
			return false;
		}
		this.lastActivity = System.nanoTime();
		record(got);
		if (afterClose) {
			violate(caller + "'s " + op + " began after close() returned and was served " + got.length
					+ " IDs instead of a NodeClosedException");
		}
		return true;
	}

	private void record(long[] got) {
		for (long id : got) {
			if (!this.ids.add(id)) {
				violate("ID " + id + " was handed out twice");
			}
			if (!this.registry.committed(this.node.layout().timestampOf(id), this.node.layout().sequenceOf(id))) {
				violate("ID " + id + " lies outside every block the registry committed");
			}
		}
	}

	private void violate(String violation) {
		synchronized (this.violations) {
			if (this.violations.size() < 20) {
				this.violations.add(violation);
			}
		}
	}

	private static void join(Thread thread, long deadline) {
		long left = deadline - System.nanoTime();
		if (left <= 0) {
			return;
		}
		try {
			thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static String names(List<Thread> threads) {
		return threads.stream().map(Thread::getName).sorted().collect(Collectors.joining(", "));
	}

	private static String millis(long nanos) {
		return TimeUnit.NANOSECONDS.toMillis(nanos) + " ms";
	}

	private static String micros(long nanos) {
		return TimeUnit.NANOSECONDS.toMicros(nanos) + " µs";
	}

	@Override
	public String toString() {
		return "schedule " + this.seed + " (own executor; timeout " + millis(this.timeoutNanos) + ", idle "
				+ millis(this.idleNanos) + ", block " + this.blockSize
				+ ((this.outageFailures > 0) ? ", outage of " + this.outageFailures + " failures" : "")
				+ (this.runway.isZero() ? "" : ", runway " + this.runway.toMillis() + " ms") + ", handler "
				+ this.handlerKind + ", ending " + this.ending + ")";
	}

	/** A call of the node's API. */
	private enum Op {

		NEXT_ID, NEXT_IDS, WARM_UP

	}

	/** How the failure handler behaves. */
	private enum HandlerKind {

		QUIET,

		/**
		 * Takes 10 to 100 ms, on the node's thread: it reports each failure somewhere
		 * far.
		 */
		SLOW,

		/**
		 * Throws an Error or a RuntimeException at times (never a VirtualMachineError,
		 * which ends the thread).
		 */
		THROWS

	}

	/** How the schedule ends. */
	private enum Ending {

		CLOSE, CLOSE_FROM_HANDLER, DROP

	}

	/** What becomes of a registry call. */
	private enum Fate {

		SUCCEED, SLOW, FAIL, REFUSE, HANG, DEAF_HANG, LATE, COMMIT_THEN_LOSE

	}

	/**
	 * A registry whose calls do what the schedule says, drawn in the order the calls
	 * come, in streaks: they succeed, take a while, fail with any kind of
	 * {@link Throwable}, are refused for good, hang until released (hearing interrupts or
	 * not), commit at once and answer late, or commit and lose the answer. It remembers
	 * every block it committed.
	 */
	private final class ScriptedRegistry implements Registry {

		private final Random random;

		private final Deque<Fate> forced = new ArrayDeque<>();

		private final List<Call> calls = new ArrayList<>();

		private final List<Call> outstanding = new ArrayList<>();

		private final List<long[]> blocks = new ArrayList<>();

		private long next;

		private Fate streak = Fate.SUCCEED;

		private int streakLeft;

		private boolean healed;

		private boolean failing;

		private boolean released;

		ScriptedRegistry(Random random) {
			this.random = random;
		}

		@Override
		public long allocate(long timestamp, long blockSize) {
			long entered = System.nanoTime();
			if (OwnExecutorScheduleRun.this.closeReturned) {
				violate("a registry call started after close() returned");
			}
			atWork("a registry call");
			Call call;
			synchronized (this) {
				call = new Call(this.calls.size(), nextFate(), timestamp, blockSize, entered);
				// Slow answers come within the timeout, late ones after one to three:
				// timeouts of minutes count as 100 ms here, so that their calls too
				// return by themselves.
				long scale = Math.min(OwnExecutorScheduleRun.this.timeoutNanos, TimeUnit.MILLISECONDS.toNanos(100));
				if (call.fate == Fate.SLOW) {
					call.delayNanos = fraction(scale / 4, 3 * scale / 4);
				}
				else if (call.fate == Fate.LATE) {
					call.delayNanos = fraction(scale, 3 * scale);
				}
				// Only calls that wait can be deaf to interrupts: a slow or late answer
				// may be either.
				call.hearsInterrupts = switch (call.fate) {
					case DEAF_HANG -> false;
					case SLOW, LATE -> this.random.nextBoolean();
					default -> true;
				};
				call.failure = switch (this.random.nextInt(4)) {
					case 0 -> new RegistryException("connection refused");
					case 1 -> new IllegalStateException("driver bug");
					case 2 -> new IOException("connection reset by peer"); // thrown
																			// undeclared
					default -> new AssertionError("an Error from the driver");
				};
				if (call.fate == Fate.LATE || call.fate == Fate.COMMIT_THEN_LOSE) {
					call.start = commit(blockSize);
				}
				if (this.released) {
					call.release.countDown();
				}
				this.calls.add(call);
				this.outstanding.add(call);
				checkOutstanding(this.outstanding.size());
				notifyAll();
			}
			try {
				return answer(call);
			}
			finally {
				synchronized (this) {
					this.outstanding.remove(call);
				}
				call.returnedAt = System.nanoTime();
				call.returned.countDown();
				OwnExecutorScheduleRun.this.atWork.remove(Thread.currentThread());
				OwnExecutorScheduleRun.this.lastActivity = call.returnedAt;
			}
		}

		private long answer(Call call) {
			switch (call.fate) {
				case SUCCEED -> {
					call.start = commit(call.size);
					return call.start;
				}
				case SLOW, HANG, DEAF_HANG -> {
					await(call, (call.fate == Fate.SLOW) ? call.delayNanos : Long.MAX_VALUE);
					call.start = commit(call.size);
					return call.start;
				}
				case LATE -> {
					await(call, call.delayNanos);
					return call.start;
				}
				case COMMIT_THEN_LOSE -> throw new RegistryException("connection lost after the commit");
				case REFUSE -> throw new RegistryException("permission denied", null, false);
				default -> throw OwnExecutorScheduleRun.<RuntimeException>sneaky(call.failure);
			}
		}

		/**
		 * Waits until the call is released or its delay has passed; a call that hears
		 * interrupts fails when interrupted, one deaf to them goes on waiting (and keeps
		 * its thread's interrupt).
		 */
		private void await(Call call, long nanos) {
			long until = System.nanoTime() + Math.min(nanos, TimeUnit.SECONDS.toNanos(NEVER_RELEASED_SECONDS));
			boolean interrupted = false;
			try {
				while (true) {
					long left = until - System.nanoTime();
					if (left <= 0) {
						if (nanos == Long.MAX_VALUE) {
							throw new RegistryException("the schedule never released a hung call");
						}
						return;
					}
					try {
						if (call.release.await(left, TimeUnit.NANOSECONDS)) {
							return;
						}
					}
					catch (InterruptedException ex) {
						if (call.hearsInterrupts) {
							Thread.currentThread().interrupt();
							throw new RegistryException("interrupted while waiting for the database", ex);
						}
						interrupted = true;
					}
				}
			}
			finally {
				if (interrupted) {
					Thread.currentThread().interrupt();
				}
			}
		}

		private Fate nextFate() {
			if (this.healed) {
				return Fate.SUCCEED;
			}
			if (this.failing) {
				return Fate.FAIL;
			}
			Fate fate = this.forced.poll();
			if (fate != null) {
				return fate;
			}
			if (this.streakLeft == 0) {
				int draw = this.random.nextInt(100);
				this.streak = (draw < 35) ? Fate.SUCCEED
						: (draw < 45) ? Fate.SLOW : (draw < 60) ? Fate.FAIL : (draw < 75) ? Fate.REFUSE : (draw < 80)
								? Fate.HANG
								: (draw < 85) ? Fate.DEAF_HANG : (draw < 95) ? Fate.LATE : Fate.COMMIT_THEN_LOSE;
				this.streakLeft = (this.random.nextInt(3) == 0) ? 2 + this.random.nextInt(3) : 1;
			}
			this.streakLeft--;
			return this.streak;
		}

		private long fraction(long from, long to) {
			return from + (long) (this.random.nextDouble() * (to - from));
		}

		private synchronized long commit(long size) {
			long start = this.next;
			this.next += size;
			this.blocks.add(new long[] { start, start + size });
			return start;
		}

		synchronized boolean committed(long timestamp, long sequence) {
			if (timestamp != 500) {
				return false;
			}
			for (long[] block : this.blocks) {
				if (sequence >= block[0] && sequence < block[1]) {
					return true;
				}
			}
			return false;
		}

		/** Makes the next call do this, whatever the schedule would draw. */
		synchronized void force(Fate fate) {
			this.forced.add(fate);
		}

		/** Every call from now on succeeds at once. */
		synchronized void heal() {
			this.healed = true;
		}

		/** Every call from now on fails, with a failure that may pass. */
		synchronized void failAll() {
			this.healed = false;
			this.failing = true;
		}

		/** Lets every call out, and every call to come, return at once. */
		synchronized void releaseAll() {
			this.released = true;
			this.calls.forEach((call) -> call.release.countDown());
		}

		synchronized int outstanding() {
			return this.outstanding.size();
		}

		/**
		 * Whether a call that does not hear interrupts was out at some time between the
		 * two given.
		 */
		synchronized boolean deafCallBetween(long from, long to) {
			return this.calls.stream()
				.anyMatch((call) -> !call.hearsInterrupts && call.enteredAt - to < 0
						&& (call.returned.getCount() > 0 || call.returnedAt - from > 0));
		}

		/** Waits until a call is out, at most the given time. */
		synchronized void awaitOutstanding(long nanos) throws InterruptedException {
			long until = System.nanoTime() + nanos;
			while (this.outstanding.isEmpty() && until - System.nanoTime() > 0) {
				TimeUnit.NANOSECONDS.timedWait(this, until - System.nanoTime());
			}
		}

		/**
		 * Waits until the call with the given number (from 0) has come, at most the given
		 * time.
		 */
		synchronized Call awaitCall(int number, long nanos) throws InterruptedException {
			long until = System.nanoTime() + nanos;
			while (this.calls.size() <= number && until - System.nanoTime() > 0) {
				TimeUnit.NANOSECONDS.timedWait(this, until - System.nanoTime());
			}
			return (this.calls.size() > number) ? this.calls.get(number) : null;
		}

	}

	/** One registry call and what the schedule decided for it. */
	private static final class Call {

		final int number;

		final Fate fate;

		final long timestamp;

		final long size;

		final long enteredAt;

		final CountDownLatch release = new CountDownLatch(1);

		final CountDownLatch returned = new CountDownLatch(1);

		volatile long returnedAt;

		long delayNanos;

		boolean hearsInterrupts;

		Throwable failure;

		/** The block's start once committed, or -1. */
		volatile long start = -1;

		Call(int number, Fate fate, long timestamp, long size, long enteredAt) {
			this.number = number;
			this.fate = fate;
			this.timestamp = timestamp;
			this.size = size;
			this.enteredAt = enteredAt;
		}

		/** Whether the ID lies in the block this call committed. */
		boolean holds(CridLayout layout, long id) {
			long sequence = layout.sequenceOf(id);
			return id >= 0 && this.start >= 0 && layout.timestampOf(id) == this.timestamp && sequence >= this.start
					&& sequence < this.start + this.size;
		}

	}

	@SuppressWarnings("unchecked")
	private static <T extends Throwable> T sneaky(Throwable thrown) throws T {
		throw (T) thrown;
	}

}
