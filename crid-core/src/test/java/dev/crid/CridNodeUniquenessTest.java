package dev.crid;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntFunction;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Many nodes, many threads each, one shared registry, and a clock that jumps backwards
 * and forwards while they run: no ID may ever come out twice.
 */
class CridNodeUniquenessTest {

	private static final Instant EPOCH = CridLayout.DEFAULT_EPOCH;

	private static final Instant BASE = EPOCH.plusSeconds(1_000_000);

	/**
	 * How many steps each worker takes its IDs in, each after one more jump of the clock
	 * than the last: on a fast machine the workers would otherwise be done before the
	 * clock has jumped more than a few times.
	 */
	private static final int STEPS = 40;

	/**
	 * Multiplies the IDs each thread takes; the {@code soak} Maven profile raises it for
	 * long runs.
	 */
	private static final int SCALE = Integer.getInteger("crid.uniqueness.scale", 1);

	@Test
	void nodesSharingARegistryNeverRepeatAnIdWhileTheClockJumps() throws Exception {
		ExecutorService shared = Executors.newFixedThreadPool(2, daemon("shared-prefetch"));
		try {
			List<NodeSpec> specs = List.of(new NodeSpec(1, 0, null, 3, 15_000), new NodeSpec(1, 1, null, 3, 15_000),
					new NodeSpec(2, 1, Runnable::run, 3, 20_000), new NodeSpec(7, 0, shared, 3, 30_000),
					new NodeSpec(64, 32, shared, 3, 100_000), new NodeSpec(1_000, 0, null, 4, 200_000),
					new NodeSpec(10_000, 5_000, null, 4, 300_000), new NodeSpec(100_000, 100_000, null, 4, 200_000));
			Result result = run(CridLayout.DEFAULT, specs, 90, new InMemoryRegistry());
			assertThat(result.ids()).hasSize(3_340_000 * SCALE);
			assertThat(result.duplicates()).as("duplicate IDs").isEmpty();
			assertThat(result.outsideWindow(90)).isZero();
			// The workers take their IDs in steps between the clock's jumps (see STEPS),
			// so the run sees some 40 jumps; this checks that the nodes reserved in many
			// of the seconds jumped to.
			assertThat(result.timestamps()).as("distinct seconds the IDs were made in").isGreaterThan(20);
		}
		finally {
			shared.shutdownNow();
		}
	}

	@Test
	void nodesNeverRepeatAnIdWhenSecondsAreUsedUp() throws Exception {
		// 12 sequence bits: 4,096 IDs per second between all nodes, so seconds run out
		// all through the run and the nodes wait for the clock to move on.
		CridLayout layout = CridLayout.of(EPOCH, 51, 12);
		List<NodeSpec> specs = List.of(new NodeSpec(1, 0, null, 2, 5_000), new NodeSpec(3, 2, Runnable::run, 2, 10_000),
				new NodeSpec(50, 25, null, 3, 30_000), new NodeSpec(512, 0, null, 3, 30_000),
				new NodeSpec(4_096, 4_096, null, 2, 50_000));
		RecordingRegistry registry = new RecordingRegistry(new InMemoryRegistry(700 * SCALE));
		Result result = run(layout, specs, 600 * SCALE, registry);
		assertThat(result.ids()).hasSize(310_000 * SCALE);
		assertThat(result.duplicates()).as("duplicate IDs").isEmpty();
		assertThat(result.outsideWindow(600 * SCALE)).isZero();
		assertThat(registry.calls()).filteredOn((call) -> call.start() > layout.maxSequence())
			.as("registry answers that a second is used up")
			.isNotEmpty();
		assertThat(registry.calls())
			.filteredOn((call) -> call.start() + call.blockSize() - 1 > layout.maxSequence()
					&& call.start() <= layout.maxSequence())
			.as("blocks clamped at the largest sequence number")
			.isNotEmpty();
	}

	@Test
	void nodesNeverRepeatAnIdWhileTheRegistryFailsStallsAndHangs() throws Exception {
		// Registry calls fail, slow down, or hang past the allocation timeout (as a read
		// on a dead connection does, deaf to interrupts), so callers time out,
		// reservations are given up on, and late answers come back after fresh ones were
		// made. The clock jumps meanwhile.
		ChaoticRegistry registry = new ChaoticRegistry(new InMemoryRegistry());
		List<NodeSpec> specs = List.of(new NodeSpec(1, 0, null, 2, 500), new NodeSpec(20, 10, null, 3, 5_000),
				new NodeSpec(100, 50, null, 3, 20_000), new NodeSpec(1_000, 1_000, null, 2, 50_000));
		Result result = run(CridLayout.DEFAULT, specs, 30, registry, Duration.ofMillis(100));
		assertThat(result.duplicates()).as("duplicate IDs").isEmpty();
		assertThat(result.outsideWindow(30)).isZero();
		assertThat(result.ids().length).as("IDs handed out").isGreaterThan(150_000 * SCALE);
		assertThat(result.failures()).as("calls that failed within their timeout").isPositive();
		assertThat(registry.hung.get()).as("calls that hung past the timeout").isPositive();
		assertThat(registry.failed.get()).as("calls that failed").isPositive();
	}

	@Test
	void duplicateCheckCatchesNodesThatDoNotShareARegistry() throws Exception {
		// Each node counts the sequence numbers of a second on its own, so two nodes
		// serving in the same second hand out the same IDs: what the check must see.
		// Neither node's own registry ever goes back, so no guard of the node refuses a
		// block and the run ends as an honest one would.
		List<NodeSpec> specs = List.of(new NodeSpec(100, 50, null, 2, 5_000), new NodeSpec(100, 0, null, 2, 5_000));
		List<Registry> registries = List.of(new InMemoryRegistry(), new InMemoryRegistry());
		Result result = run(CridLayout.DEFAULT, specs, 5, registries::get, null);
		assertThat(result.ids()).hasSize(20_000 * SCALE);
		assertThat(result.duplicates()).isNotEmpty();
	}

	private static Result run(CridLayout layout, List<NodeSpec> specs, int windowSeconds, Registry registry)
			throws Exception {
		return run(layout, specs, windowSeconds, registry, null);
	}

	private static Result run(CridLayout layout, List<NodeSpec> specs, int windowSeconds, Registry registry,
			Duration tolerantTimeout) throws Exception {
		return run(layout, specs, windowSeconds, (node) -> registry, tolerantTimeout);
	}

	/**
	 * Runs the nodes to the end. With a timeout, callers take failures in their stride
	 * (they count them and go on); without one, any failure fails the run.
	 */
	private static Result run(CridLayout layout, List<NodeSpec> specs, int windowSeconds,
			IntFunction<Registry> registryOfNode, Duration tolerantTimeout) throws Exception {
		MutableClock clock = new MutableClock(BASE);
		List<CridNode> nodes = new ArrayList<>();
		List<CompletableFuture<long[]>> workers = new ArrayList<>();
		AtomicLong failures = new AtomicLong();
		int threads = specs.stream().mapToInt(NodeSpec::threads).sum();
		ExecutorService pool = Executors.newFixedThreadPool(threads, daemon("uniqueness-worker"));
		AtomicBoolean running = new AtomicBoolean(true);
		AtomicLong clockMoves = new AtomicLong();
		Thread mover = new Thread(() -> moveClock(clock, windowSeconds, running, clockMoves), "clock-mover");
		mover.setDaemon(true);
		try {
			for (NodeSpec spec : specs) {
				CridNode.Builder builder = CridNode.builder(registryOfNode.apply(nodes.size()))
					.layout(layout)
					.clock(clock)
					.blockSize(spec.blockSize())
					.threshold(spec.threshold())
					.allocationTimeout((tolerantTimeout != null) ? tolerantTimeout : Duration.ofSeconds(10));
				if (spec.executor() != null) {
					builder.prefetchExecutor(spec.executor());
				}
				CridNode node = builder.build();
				nodes.add(node);
				for (int t = 0; t < spec.threads(); t++) {
					int count = spec.idsPerThread() * SCALE;
					workers.add(CompletableFuture.supplyAsync(() -> (tolerantTimeout != null)
							? takeTolerantly(node, count, failures, clockMoves) : take(node, count, clockMoves), pool));
				}
			}
			mover.start();
			CompletableFuture.allOf(workers.toArray(CompletableFuture[]::new)).get(120L * SCALE, TimeUnit.SECONDS);
			running.set(false);
			mover.join(TimeUnit.SECONDS.toMillis(10));
			long issued = nodes.stream().mapToLong((node) -> node.stats().idsIssued()).sum();
			long[] all = merge(workers);
			assertThat(issued).as("IDs counted by the nodes' stats").isEqualTo(all.length);
			return new Result(layout, all, failures.get());
		}
		finally {
			running.set(false);
			nodes.forEach(CridNode::close);
			pool.shutdownNow();
		}
	}

	private static long[] take(CridNode node, int count, AtomicLong clockMoves) {
		long[] ids = new long[count];
		for (int i = 0; i < count; i++) {
			awaitStep(i, count, clockMoves);
			ids[i] = node.nextId();
		}
		return ids;
	}

	/**
	 * Takes IDs until {@code count} calls have been made, counting the calls that failed.
	 */
	private static long[] takeTolerantly(CridNode node, int count, AtomicLong failures, AtomicLong clockMoves) {
		long[] ids = new long[count];
		int taken = 0;
		for (int i = 0; i < count; i++) {
			awaitStep(i, count, clockMoves);
			try {
				ids[taken++] = node.nextId();
			}
			catch (RegistryException | SequenceOverflowException ex) {
				taken--;
				failures.incrementAndGet();
			}
		}
		return Arrays.copyOf(ids, taken);
	}

	/**
	 * Before the first call of each of the {@link #STEPS} steps, waits until the clock
	 * has jumped as often.
	 */
	private static void awaitStep(int call, int count, AtomicLong clockMoves) {
		long step = (long) call * STEPS / count;
		if ((long) (call - 1) * STEPS / count == step && call > 0) {
			return;
		}
		while (clockMoves.get() < step) {
			LockSupport.parkNanos(50_000);
		}
	}

	/**
	 * Moves the clock to a random second of the window, late in that second so that a
	 * node waiting for the next second notices the move quickly, then lets the nodes run
	 * a little.
	 */
	private static void moveClock(MutableClock clock, int windowSeconds, AtomicBoolean running, AtomicLong moves) {
		SplittableRandom random = new SplittableRandom(7);
		while (running.get()) {
			long second = random.nextInt(windowSeconds);
			long nanos = 900_000_000L + random.nextInt(100_000_000);
			clock.set(BASE.plusSeconds(second).plusNanos(nanos));
			moves.incrementAndGet();
			LockSupport.parkNanos(200_000 + random.nextInt(800_000));
		}
	}

	private static long[] merge(List<CompletableFuture<long[]>> workers) throws Exception {
		int total = 0;
		for (CompletableFuture<long[]> worker : workers) {
			total += worker.get().length;
		}
		long[] all = new long[total];
		int at = 0;
		for (CompletableFuture<long[]> worker : workers) {
			long[] ids = worker.get();
			System.arraycopy(ids, 0, all, at, ids.length);
			at += ids.length;
		}
		Arrays.sort(all);
		return all;
	}

	private static java.util.concurrent.ThreadFactory daemon(String name) {
		AtomicLong number = new AtomicLong();
		return (task) -> {
			Thread thread = new Thread(task, name + "-" + number.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		};
	}

	/**
	 * A registry that fails 8% of calls, stalls 10% for up to 5 ms, and hangs 1% for
	 * 150-400 ms, ignoring interrupts; it answers from the registry it wraps.
	 */
	static final class ChaoticRegistry implements Registry {

		final AtomicLong failed = new AtomicLong();

		final AtomicLong hung = new AtomicLong();

		private final Registry delegate;

		ChaoticRegistry(Registry delegate) {
			this.delegate = delegate;
		}

		@Override
		public long allocate(long timestamp, long blockSize) {
			java.util.concurrent.ThreadLocalRandom random = java.util.concurrent.ThreadLocalRandom.current();
			int dice = random.nextInt(100);
			if (dice < 8) {
				this.failed.incrementAndGet();
				throw new IllegalStateException("connection reset");
			}
			if (dice < 18) {
				LockSupport.parkNanos(random.nextLong(5_000_000));
			}
			else if (dice == 18) {
				this.hung.incrementAndGet();
				long until = System.nanoTime() + random.nextLong(150_000_000, 400_000_000);
				while (System.nanoTime() < until) {
					LockSupport.parkNanos(until - System.nanoTime());
				}
			}
			return this.delegate.allocate(timestamp, blockSize);
		}

	}

	/**
	 * A node to run: its block size and threshold, the executor for its registry calls
	 * ({@code null} for its own thread), and how many threads take how many IDs each from
	 * it.
	 */
	record NodeSpec(long blockSize, long threshold, Executor executor, int threads, int idsPerThread) {
	}

	/** Every ID of a run, sorted, and how many calls failed. */
	record Result(CridLayout layout, long[] ids, long failures) {

		List<String> duplicates() {
			List<String> found = new ArrayList<>();
			CridParser parser = CridParser.of(this.layout);
			for (int i = 1; i < this.ids.length && found.size() < 10; i++) {
				if (this.ids[i] == this.ids[i - 1]) {
					found.add(this.ids[i] + " " + parser.parse(this.ids[i]));
				}
			}
			return found;
		}

		/** IDs whose timestamp lies outside the seconds the clock was moved through. */
		long outsideWindow(int windowSeconds) {
			long first = this.layout.timestampAt(BASE);
			return Arrays.stream(this.ids)
				.filter((id) -> id < 0 || this.layout.timestampOf(id) < first
						|| this.layout.timestampOf(id) >= first + windowSeconds)
				.count();
		}

		long timestamps() {
			return Arrays.stream(this.ids).map(this.layout::timestampOf).distinct().count();
		}

	}

}
