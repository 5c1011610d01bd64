package dev.crid;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * One seeded schedule of a node against a scripted registry, executor and clock, checked
 * against a simple model: no ID repeats, none lies outside a block the registry
 * committed, every caller returns within its budget, no "went back" is raised (the
 * registry never goes back), no registry call starts after {@code close()}, at most two
 * registry calls are out at once, a failure that asking again cannot mend reaches the
 * caller with no further registry call, once the registry heals a caller gets an ID
 * again, even one that begins while the latest call hangs and is not yet stuck, and a
 * node with a runway (one schedule in three) hands no ID out later than 1.25 runways
 * after the second it carries has ended.
 *
 * <p>
 * The registry's calls are decided by the schedule: succeed, fail with any kind of
 * {@link Throwable}, hang (until the end, interrupts heard or not), answer late (the
 * block is committed at once, the answer delivered up to three timeouts later, so often
 * after the call was given up on and a fresh one answered), or commit and lose the
 * answer. The failure handler may throw an {@link Error}.
 */
final class ScheduleRun {

	static final Duration TIMEOUT = Duration.ofMillis(100);

	private static final int EVENTS = 120;

	private final long seed;

	private final SimulatedScheduler scheduler;

	private final Random random;

	/**
	 * How the executor runs tasks: on new threads, never (callers run them), or on the
	 * submitting thread.
	 */
	private final ExecutorMode executorMode;

	private final ScriptedRegistry registry = new ScriptedRegistry();

	private final Queue<Runnable> queuedTasks = new ArrayDeque<>();

	private final List<String> violations = new ArrayList<>();

	private final Set<Long> ids = new HashSet<>();

	private final CridNode node;

	private final long timeoutNanos = TIMEOUT.toNanos();

	/** The node's wall clock, on the scheduler's virtual time. */
	private final Clock clock;

	/**
	 * The node's runway: zero in two schedules of three, half a second to five in the
	 * rest.
	 */
	private final Duration runway;

	private long closedAtStep = Long.MAX_VALUE;

	private boolean healed;

	private int callers;

	ScheduleRun(long seed) {
		this.seed = seed;
		this.scheduler = new SimulatedScheduler(seed);
		this.random = this.scheduler.random;
		this.executorMode = ExecutorMode.values()[this.random.nextInt(ExecutorMode.values().length)];
		boolean throwingHandler = this.random.nextBoolean();
		Consumer<RuntimeException> handler = (failure) -> {
			if (throwingHandler && this.random.nextInt(3) == 0) {
				throw new AssertionError("a failure handler that throws an Error");
			}
		};
		this.clock = new VirtualClock(this.scheduler);
		Executor executor = (task) -> {
			if (this.executorMode == ExecutorMode.DIRECT) {
				task.run();
			}
			else {
				this.queuedTasks.add(task);
			}
		};
		this.runway = (this.random.nextInt(3) == 0) ? Duration.ofMillis(500 + this.random.nextInt(4_500))
				: Duration.ZERO;
		CridNode built = CridNode.builder(this.registry)
			.clock(this.clock)
			.blockSize(4 + this.random.nextInt(12))
			.threshold(this.random.nextBoolean() ? 0 : 2)
			.allocationTimeout(TIMEOUT)
			.prefetchExecutor(executor)
			.onPrefetchFailure(handler)
			.runway(this.runway)
			.build();
		Timing timing = new Timing() {

			@Override
			public long nanoTime() {
				return ScheduleRun.this.scheduler.now();
			}

			@Override
			public void sleep(long nanos) throws InterruptedException {
				ScheduleRun.this.scheduler.sleep(nanos);
			}

			@Override
			public boolean await(CompletableFuture<?> future, long nanos) throws InterruptedException {
				return ScheduleRun.this.scheduler.await(future, nanos);
			}

		};
		this.node = new CridNode(built.settings()
			.with(timing, NodeSettings.IDLE_THREAD_TIMEOUT, this.executorMode == ExecutorMode.NEVER));
	}

	/** Runs the schedule and returns what it found wrong; empty when nothing. */
	List<String> run() {
		for (int event = 0; event < EVENTS; event++) {
			if (!step(false)) {
				break;
			}
		}
		heal();
		drain();
		List<SimulatedScheduler.Actor> healed = new ArrayList<>();
		if (!this.node.isClosed()) {
			healed.add(startCaller(1, true));
			drain();
			if (this.executorMode == ExecutorMode.THREADS) {
				healed.add(callerWhileACallBecomesStuck());
			}
			for (SimulatedScheduler.Actor caller : healed) {
				if (caller.crashed != null) {
					violate("after the registry healed, " + caller + " failed: " + caller.crashed);
				}
			}
			closeNode();
			drain();
		}
		this.registry.releaseAll();
		drain();
		for (SimulatedScheduler.Actor actor : this.scheduler.actors()) {
			if (!actor.done) {
				violate("actor " + actor + " never ended");
			}
			else if (actor.crashed != null && !healed.contains(actor)) {
				violate("actor " + actor + " ended with " + actor.crashed);
			}
		}
		if (this.node.stats().registryWentBack() != 0) {
			violate("the node reported that the registry went back " + this.node.stats().registryWentBack()
					+ " times; it never did");
		}
		return this.violations;
	}

	/**
	 * One event of the schedule, drawn from those possible now; returns whether there was
	 * any.
	 */
	private boolean step(boolean draining) {
		List<Runnable> choices = new ArrayList<>();
		for (SimulatedScheduler.Actor actor : this.scheduler.runnable()) {
			choices.add(() -> this.scheduler.run(actor));
		}
		for (ScriptedRegistry.Call call : this.registry.pending()) {
			choices.add(() -> this.registry.decide(call, this.random, this.healed));
		}
		for (ScriptedRegistry.Call call : this.registry.late()) {
			choices.add(() -> this.registry.deliver(call));
		}
		if (!this.queuedTasks.isEmpty() && this.executorMode == ExecutorMode.THREADS) {
			choices.add(this::startQueuedTask);
		}
		if (!draining) {
			if (this.callers < 6) {
				choices.add(() -> startCaller(1 + this.random.nextInt(4), false));
			}
			if (!this.node.isClosed() && this.random.nextInt(40) == 0) {
				choices.add(this::closeNode);
			}
			choices.add(() -> this.scheduler.advanceClockBy((1 + this.random.nextInt(3)) * this.timeoutNanos / 4));
		}
		if (choices.isEmpty()) {
			long due = this.registry.nextDelivery();
			return (due != Long.MAX_VALUE) ? this.scheduler.advanceClockBy(due - this.scheduler.now())
					: this.scheduler.advanceClock();
		}
		choices.get(this.random.nextInt(choices.size())).run();
		int out = this.registry.outstanding();
		int stuck = this.node.stats().stuckCalls();
		if (out > 1 + stuck) {
			violate(out + " registry calls out at once, with " + stuck + " given up on: the node keeps one more at "
					+ "most");
		}
		return true;
	}

	/**
	 * With the registry healed but for one call that hangs, or commits at once and
	 * answers three timeouts later: a caller that begins when that call is late (past the
	 * timeout) but not yet stuck (timeout and grace) sees it become stuck before its own
	 * deadline, and must give up on it and get a block from a fresh call in time; the
	 * answer that comes after that fresh call's, for a lower block, is no registry that
	 * went back. Returns that caller, once the schedule settled.
	 */
	private SimulatedScheduler.Actor callerWhileACallBecomesStuck() {
		this.registry.releaseAll(); // no call given up on is still out, so the node may
									// give up on the next
		drain();
		this.registry.nextCall = this.random.nextBoolean() ? Decision.HANG : Decision.LATE;
		this.scheduler.start("prober", () -> {
			// Takes IDs until the node calls the registry, which hangs; it may fail at
			// its deadline.
			while (this.registry.outstandingCall() == null) {
				try {
					record(new long[] { this.node.nextId() });
				}
				catch (CridException ex) {
					return;
				}
			}
		});
		drain();
		ScriptedRegistry.Call hung = this.registry.outstandingCall();
		if (hung != null && hung.decision == Decision.LATE) {
			hung.deliverableAt = hung.startedAt + 3 * this.timeoutNanos;
		}
		long at = (hung == null) ? this.scheduler.now()
				: hung.startedAt + this.timeoutNanos + (1 + this.random.nextInt(99)) * (this.timeoutNanos / 100);
		if (at - this.scheduler.now() > 0) {
			this.scheduler.advanceClockBy(at - this.scheduler.now());
		}
		SimulatedScheduler.Actor caller = startCaller(1, true);
		drain();
		return caller;
	}

	/** From now on every new call succeeds; hung calls but the latest return. */
	private void heal() {
		this.healed = true;
		this.registry.releaseAllButLatest();
	}

	private void drain() {
		for (int i = 0; i < 10_000; i++) {
			if (!step(true)) {
				return;
			}
		}
		violate("the schedule did not settle");
	}

	private void startQueuedTask() {
		Runnable task = this.queuedTasks.poll();
		this.scheduler.start("task", task);
	}

	private void closeNode() {
		this.scheduler.start("close", () -> {
			this.node.close();
			this.closedAtStep = this.scheduler.step();
			this.registry.closedAtStep = this.closedAtStep;
		});
	}

	/**
	 * Starts a caller that makes some calls; {@code mustSucceed} makes any failure its
	 * crash.
	 */
	private SimulatedScheduler.Actor startCaller(int calls, boolean mustSucceed) {
		int number = ++this.callers;
		return this.scheduler.start("caller-" + number, () -> {
			for (int i = 0; i < calls; i++) {
				int kind = this.random.nextInt(8);
				long began = this.scheduler.now();
				long beganAtStep = this.scheduler.step();
				this.registry.newInvocation();
				long[] got;
				CridException failure = null;
				try {
					if (kind == 0 && !mustSucceed) {
						this.node.warmUp();
						got = new long[0];
					}
					else if (kind == 1 && !mustSucceed) {
						got = this.node.nextIds(this.random.nextInt(4));
					}
					else {
						got = new long[] { this.node.nextId() };
					}
				}
				catch (CridException ex) {
					if (mustSucceed) {
						throw ex;
					}
					got = null;
					failure = ex;
				}
				if (this.registry.refusedThisThread()
						&& !(failure instanceof RegistryException refusal && !refusal.isRetryable())) {
					violate("caller-" + number + " ran a registry call that failed for good (not retryable), yet "
							+ ((failure != null) ? "threw " + failure : "was served"));
				}
				long took = this.scheduler.now() - began;
				long budget = (kind == 1) ? 2 * this.timeoutNanos : this.timeoutNanos;
				if (took > budget) {
					violate("caller-" + number + " took " + Duration.ofNanos(took) + ", more than its budget of "
							+ Duration.ofNanos(budget));
				}
				if (got != null) {
					record(got);
					if (beganAtStep > this.closedAtStep) {
						violate("caller-" + number + " began after close() and was served " + got.length
								+ " IDs instead of a NodeClosedException");
					}
				}
			}
		});
	}

	private void record(long[] got) {
		for (long id : got) {
			if (!this.ids.add(id)) {
				violate("ID " + id + " was handed out twice");
			}
			if (!this.registry.committed(this.node.layout().timestampOf(id), this.node.layout().sequenceOf(id))) {
				violate("ID " + id + " lies outside every block the registry committed");
			}
			// With a runway, an ID is handed out at most 1.25 runways after the second it
			// carries has ended.
			Instant secondEnded = this.node.layout().epoch().plusSeconds(this.node.layout().timestampOf(id) + 1);
			Duration age = Duration.between(secondEnded, this.clock.instant());
			if (!this.runway.isZero() && age.toNanos() > this.runway.toNanos() * 5 / 4) {
				violate("ID " + id + " was handed out " + age
						+ " after its second ended, beyond 1.25 times the runway of " + this.runway);
			}
		}
	}

	private void violate(String violation) {
		this.violations.add(violation);
	}

	@Override
	public String toString() {
		return "schedule " + this.seed + " (executor " + this.executorMode
				+ (this.runway.isZero() ? "" : ", runway " + this.runway.toMillis() + " ms") + ")";
	}

	/** How the schedule's executor runs the node's tasks. */
	enum ExecutorMode {

		/** Each task on a thread of its own, when the schedule starts it. */
		THREADS,

		/**
		 * Never: callers run the reservations themselves (as for a registry in memory).
		 */
		NEVER,

		/** At once, on the thread that submits it. */
		DIRECT

	}

	/**
	 * The node's wall clock: the epoch plus 500 seconds plus the virtual time elapsed.
	 */
	private static final class VirtualClock extends Clock {

		private final SimulatedScheduler scheduler;

		VirtualClock(SimulatedScheduler scheduler) {
			this.scheduler = scheduler;
		}

		@Override
		public ZoneId getZone() {
			return ZoneOffset.UTC;
		}

		@Override
		public Clock withZone(ZoneId zone) {
			return this;
		}

		@Override
		public Instant instant() {
			return CridLayout.DEFAULT_EPOCH.plusSeconds(500)
				.plusNanos(this.scheduler.now() - SimulatedScheduler.START_NANOS);
		}

	}

	/**
	 * A registry whose every call waits for the schedule's decision, and which remembers
	 * every block it committed. Calls made on a caller's thread (a direct executor, a
	 * caller that runs a reservation itself) are decided on the spot and never hang: such
	 * registries answer from memory.
	 */
	final class ScriptedRegistry implements Registry {

		private final Map<Long, Long> next = new HashMap<>();

		private final Map<Long, List<long[]>> blocks = new HashMap<>();

		private final List<Call> calls = new ArrayList<>();

		/**
		 * Threads that ran a call which failed for good (not retryable) and must call no
		 * more: a task runs one reservation, and a caller that ran its own (the executor
		 * never runs tasks) gets the failure at once. Not kept for a direct executor,
		 * whose callers also run prefetches nobody waits for.
		 */
		private final Set<Thread> refused = new HashSet<>();

		volatile long closedAtStep = Long.MAX_VALUE;

		/**
		 * What becomes of the next call, whatever the schedule would decide: it hangs, or
		 * it commits at once and answers three timeouts later, interrupts or not;
		 * {@code null} to let the schedule decide.
		 */
		volatile Decision nextCall;

		@Override
		public long allocate(long timestamp, long blockSize) {
			if (ScheduleRun.this.scheduler.step() > this.closedAtStep) {
				violate("a registry call started after close()");
			}
			synchronized (this.refused) {
				if (this.refused.contains(Thread.currentThread())) {
					violate(Thread.currentThread().getName() + " called the registry again after a failure that "
							+ "asking again cannot mend");
				}
			}
			Decision scripted = this.nextCall;
			Call call = new Call(timestamp, blockSize,
					ScheduleRun.this.random.nextBoolean() && scripted != Decision.LATE,
					ScheduleRun.this.scheduler.now());
			if (ScheduleRun.this.executorMode != ExecutorMode.THREADS) {
				decide(call, ScheduleRun.this.random, ScheduleRun.this.healed);
				if (call.decision == Decision.HANG) {
					call.start = commit(call.timestamp, call.size);
				}
				if (call.decision == Decision.HANG || call.decision == Decision.LATE) {
					call.decision = Decision.SUCCEED;
				}
			}
			else {
				if (scripted != null) {
					this.nextCall = null;
					call.decided = true;
					call.decision = scripted;
					if (scripted == Decision.LATE) {
						call.start = commit(call.timestamp, call.size);
						call.deliverableAt = Long.MAX_VALUE; // set once the caller is on
																// its way
					}
				}
				synchronized (this.calls) {
					this.calls.add(call);
				}
				ScheduleRun.this.scheduler.block(() -> call.answerable(), Long.MAX_VALUE, call.hearsInterrupts);
				synchronized (this.calls) {
					this.calls.remove(call);
				}
				if (Thread.currentThread().isInterrupted() && call.hearsInterrupts && !call.answerable()) {
					throw new RegistryException("interrupted while waiting for the database");
				}
			}
			return call.answer();
		}

		/** Draws what becomes of a call, commits its block if it does. */
		void decide(Call call, Random random, boolean healed) {
			call.decided = true;
			if (healed) {
				call.decision = Decision.SUCCEED;
			}
			else {
				Decision[] decisions = Decision.values();
				call.decision = decisions[random.nextInt(decisions.length)];
			}
			if (call.decision.commits) {
				call.start = commit(call.timestamp, call.size);
			}
			if (call.decision == Decision.LATE) {
				call.deliverableAt = ScheduleRun.this.scheduler.now()
						+ random.nextInt(4) * ScheduleRun.this.timeoutNanos;
			}
			call.failure = switch (random.nextInt(5)) {
				case 0 -> new RegistryException("connection refused");
				case 1 -> new IllegalStateException("driver bug");
				case 2 -> new IOException("connection reset by peer"); // thrown
																		// undeclared
				case 3 -> new AssertionError("an Error from the driver");
				default -> new RegistryException("permission denied", null, false);
			};
		}

		private long commit(long timestamp, long size) {
			long start = this.next.getOrDefault(timestamp, 0L);
			this.next.put(timestamp, start + size);
			this.blocks.computeIfAbsent(timestamp, (ts) -> new ArrayList<>()).add(new long[] { start, start + size });
			return start;
		}

		boolean committed(long timestamp, long sequence) {
			for (long[] block : this.blocks.getOrDefault(timestamp, List.of())) {
				if (sequence >= block[0] && sequence < block[1]) {
					return true;
				}
			}
			return false;
		}

		void deliver(Call call) {
			call.delivered = true;
		}

		List<Call> pending() {
			synchronized (this.calls) {
				return this.calls.stream().filter((call) -> !call.decided).toList();
			}
		}

		/** Late calls whose answer is due. */
		List<Call> late() {
			long now = ScheduleRun.this.scheduler.now();
			synchronized (this.calls) {
				return this.calls.stream().filter((call) -> isLate(call) && now - call.deliverableAt >= 0).toList();
			}
		}

		/** When the next late answer is due, or {@link Long#MAX_VALUE}. */
		long nextDelivery() {
			synchronized (this.calls) {
				return this.calls.stream()
					.filter(this::isLate)
					.mapToLong((call) -> call.deliverableAt)
					.min()
					.orElse(Long.MAX_VALUE);
			}
		}

		private boolean isLate(Call call) {
			return call.decided && call.decision == Decision.LATE && !call.delivered;
		}

		/** The latest call still out, or {@code null}. */
		Call outstandingCall() {
			synchronized (this.calls) {
				return this.calls.isEmpty() ? null : this.calls.get(this.calls.size() - 1);
			}
		}

		/**
		 * A caller's thread begins a new call of the node: what its earlier calls met is
		 * forgotten.
		 */
		void newInvocation() {
			synchronized (this.refused) {
				this.refused.remove(Thread.currentThread());
			}
		}

		boolean refusedThisThread() {
			synchronized (this.refused) {
				return this.refused.contains(Thread.currentThread());
			}
		}

		int outstanding() {
			synchronized (this.calls) {
				return this.calls.size();
			}
		}

		void releaseAllButLatest() {
			synchronized (this.calls) {
				for (int i = 0; i < this.calls.size() - 1; i++) {
					release(this.calls.get(i));
				}
			}
		}

		void releaseAll() {
			synchronized (this.calls) {
				this.calls.forEach(this::release);
			}
		}

		private void release(Call call) {
			if (!call.decided || call.decision == Decision.HANG) {
				call.decided = true;
				call.decision = Decision.SUCCEED;
				call.start = commit(call.timestamp, call.size);
			}
			call.delivered = true;
		}

		/** One registry call and what the schedule decided for it. */
		final class Call {

			final long timestamp;

			final long size;

			final boolean hearsInterrupts;

			/** When the node made the call, on the schedule's clock. */
			final long startedAt;

			/** For a late call: from when its answer may be delivered. */
			volatile long deliverableAt;

			volatile boolean decided;

			volatile boolean delivered;

			volatile Decision decision;

			volatile long start = -1;

			volatile Throwable failure;

			Call(long timestamp, long size, boolean hearsInterrupts, long startedAt) {
				this.timestamp = timestamp;
				this.size = size;
				this.hearsInterrupts = hearsInterrupts;
				this.startedAt = startedAt;
			}

			boolean answerable() {
				return this.decided && this.decision != Decision.HANG
						&& (this.decision != Decision.LATE || this.delivered);
			}

			long answer() {
				switch (this.decision) {
					case SUCCEED, LATE, HANG -> {
						return this.start;
					}
					case COMMIT_THEN_LOSE -> throw new RegistryException("connection lost after the commit");
					default -> {
						if (this.failure instanceof RegistryException refusal && !refusal.isRetryable()
								&& ScheduleRun.this.executorMode != ExecutorMode.DIRECT) {
							synchronized (ScriptedRegistry.this.refused) {
								ScriptedRegistry.this.refused.add(Thread.currentThread());
							}
						}
						throw ScheduleRun.<RuntimeException>sneaky(this.failure);
					}
				}
			}

		}

	}

	/** What becomes of a registry call. */
	enum Decision {

		SUCCEED(true), FAIL(false), HANG(false), LATE(true), COMMIT_THEN_LOSE(true);

		final boolean commits;

		Decision(boolean commits) {
			this.commits = commits;
		}

	}

	@SuppressWarnings("unchecked")
	private static <T extends Throwable> T sneaky(Throwable thrown) throws T {
		throw (T) thrown;
	}

}
