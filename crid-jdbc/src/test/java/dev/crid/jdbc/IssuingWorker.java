package dev.crid.jdbc;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.crid.CridException;
import dev.crid.CridNode;

/**
 * A process that issues IDs until its time is up or it is killed, for tests that kill
 * processes and put faults between them and their database. Its own pool (set up as the
 * README recommends), several nodes with blocks of random sizes, several threads per
 * node; a call that fails is counted and the thread goes on. Each thread appends its IDs
 * to the output file in chunks of whole IDs (big-endian longs), so that a {@code kill -9}
 * loses only IDs not yet written, never the file's earlier content; a reader drops a torn
 * last chunk by keeping a multiple of eight bytes. Every second it prints one status
 * line:
 * {@code status issued=N failures=N longestCallMs=N laterFailures=N longestPauseMs=N longestStallMs=N stalls=N},
 * and each of the first {@value #PRINTED_FAILURES} failed calls on a line
 * {@code failure after N ms: exception}; where the later failures are those of a thread
 * after its first ID (a start-up on a loaded machine may wait out the allocation timeout
 * for the pool's first connection), the longest pause is the longest time a thread went
 * without an ID after its first (less the time it spent writing IDs to the file, which a
 * loaded disk can make long), and the longest stall is the longest time a probe thread
 * that asks to run every millisecond went without running, from the issuing threads'
 * start: what the machine and the JVM (a collection, a safepoint, a starved process) take
 * from any thread of the process, whatever the nodes do; and the stalls are the nodes'
 * {@code CridStats.stalls()}: calls that had to wait for the registry.
 *
 * <p>
 * Arguments: JDBC URL, user, password, table, seed, nodes, threads per node, smallest
 * block, largest block, milliseconds to run, output file, and optionally each node's
 * runway in milliseconds (default 0) and the IDs each thread takes a second (default 0:
 * as many as it can).
 *
 * <p>
 * A thread that ends on anything other than a {@link CridException} (an unexpected
 * exception from the node, a failed write) makes the process print it and exit with
 * status {@value #UNEXPECTED_EXIT}, once the other threads are done, so that the test
 * that started it sees it.
 */
public final class IssuingWorker {

	/** The exit status when a thread ended on an unexpected exception. */
	static final int UNEXPECTED_EXIT = 70;

	private static final int CHUNK = 4_096;

	/**
	 * A slow thread writes what it has at least this often, so a test sees soon that a
	 * worker issues.
	 */
	private static final long FLUSH_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

	/** How many failed calls the process describes, each on a line of its own. */
	private static final int PRINTED_FAILURES = 10;

	/** How often the stall probe asks to run. */
	private static final long PROBE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

	private IssuingWorker() {
	}

	/**
	 * Runs the process.
	 * @param args see the class description
	 * @throws Exception on any failure other than a failed call, which makes the process
	 * exit non-zero
	 */
	public static void main(String[] args) throws Exception {
		String url = args[0];
		String user = args[1];
		String password = args[2];
		String table = args[3];
		SplittableRandom random = new SplittableRandom(Long.parseLong(args[4]));
		int nodeCount = Integer.parseInt(args[5]);
		int threadsPerNode = Integer.parseInt(args[6]);
		long smallestBlock = Long.parseLong(args[7]);
		long largestBlock = Long.parseLong(args[8]);
		long runNanos = TimeUnit.MILLISECONDS.toNanos(Long.parseLong(args[9]));
		Path output = Path.of(args[10]);
		Duration runway = Duration.ofMillis((args.length > 11) ? Long.parseLong(args[11]) : 0);
		long perSecond = (args.length > 12) ? Long.parseLong(args[12]) : 0;
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(url);
		config.setUsername(user);
		config.setPassword(password);
		config.setMaximumPoolSize(nodeCount + 1);
		config.setConnectionTimeout(Duration.ofSeconds(2).toMillis());
		config.setValidationTimeout(Duration.ofSeconds(1).toMillis());
		config.setInitializationFailTimeout(-1);
		LongAdder issued = new LongAdder();
		LongAdder failures = new LongAdder();
		LongAdder laterFailures = new LongAdder();
		AtomicLong longestCall = new AtomicLong();
		AtomicLong longestPause = new AtomicLong();
		AtomicLong longestStall = new AtomicLong();
		ConcurrentLinkedQueue<Throwable> unexpected = new ConcurrentLinkedQueue<>();
		try (HikariDataSource dataSource = new HikariDataSource(config);
				FileChannel file = FileChannel.open(output, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
						StandardOpenOption.APPEND)) {
			JdbcTemplateRegistry registry = JdbcTemplateRegistry.builder(new JdbcTemplate(dataSource))
				.tableName(table)
				.queryTimeout(Duration.ofSeconds(2))
				.build();
			List<CridNode> nodes = new ArrayList<>();
			for (int i = 0; i < nodeCount; i++) {
				long blockSize = random.nextLong(smallestBlock, largestBlock + 1);
				nodes.add(CridNode.builder(registry)
					.blockSize(blockSize)
					.threshold(blockSize / 2)
					.runway(runway)
					.build());
			}
			long deadline = System.nanoTime() + runNanos;
			Thread probe = new Thread(() -> probeStalls(longestStall));
			probe.setDaemon(true);
			probe.start();
			List<Thread> threads = new ArrayList<>();
			for (CridNode node : nodes) {
				for (int t = 0; t < threadsPerNode; t++) {
					Thread thread = new Thread(() -> issue(node, deadline, perSecond, file, issued, failures,
							laterFailures, longestCall, longestPause));
					thread.setUncaughtExceptionHandler((dead, ex) -> {
						unexpected.add(ex);
						System.out.println("unexpected exception in " + dead.getName() + ":");
						ex.printStackTrace(System.out);
					});
					threads.add(thread);
					thread.start();
				}
			}
			Thread reporter = new Thread(() -> {
				while (!Thread.currentThread().isInterrupted()) {
					status(issued, failures, laterFailures, longestCall, longestPause, longestStall, nodes);
					try {
						TimeUnit.SECONDS.sleep(1);
					}
					catch (InterruptedException ex) {
						return;
					}
				}
			});
			reporter.setDaemon(true);
			reporter.start();
			for (Thread thread : threads) {
				thread.join();
			}
			reporter.interrupt();
			for (CridNode node : nodes) {
				System.out.println("block " + node.blockSize() + ": " + node.stats());
				node.close();
			}
			status(issued, failures, laterFailures, longestCall, longestPause, longestStall, nodes);
		}
		if (!unexpected.isEmpty()) {
			System.out.println(unexpected.size() + " thread(s) ended on an unexpected exception");
			System.out.flush();
			System.exit(UNEXPECTED_EXIT);
		}
	}

	private static void issue(CridNode node, long deadline, long perSecond, FileChannel file, LongAdder issued,
			LongAdder failures, LongAdder laterFailures, AtomicLong longestCall, AtomicLong longestPause) {
		ByteBuffer chunk = ByteBuffer.allocate(CHUNK * Long.BYTES);
		long lastWrite = System.nanoTime();
		long calls = 0;
		long pacedFrom = lastWrite;
		boolean issuedOne = false;
		long lastId = 0;
		while (System.nanoTime() - deadline < 0) {
			long started = System.nanoTime();
			try {
				chunk.putLong(node.nextId());
				issued.increment();
				long now = System.nanoTime();
				if (issuedOne) {
					longestPause.accumulateAndGet(now - lastId, Math::max);
				}
				lastId = now;
				issuedOne = true;
			}
			catch (CridException ex) {
				failures.increment();
				if (issuedOne) {
					laterFailures.increment();
				}
				if (failures.sum() <= PRINTED_FAILURES) {
					System.out.println("failure after " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)
							+ " ms: " + ex);
				}
			}
			longestCall.accumulateAndGet(System.nanoTime() - started, Math::max);
			if (perSecond > 0 && ++calls % 100 == 0) { // on a schedule: a late thread
														// catches up
				LockSupport.parkNanos(pacedFrom + calls * TimeUnit.SECONDS.toNanos(1) / perSecond - System.nanoTime());
			}
			if (!chunk.hasRemaining() || System.nanoTime() - lastWrite > FLUSH_NANOS) {
				long writing = System.nanoTime();
				write(file, chunk);
				lastWrite = System.nanoTime();
				lastId += lastWrite - writing; // a pause is the node's, not the file's
			}
		}
		write(file, chunk);
	}

	private static void probeStalls(AtomicLong longestStall) {
		long last = System.nanoTime();
		while (true) {
			LockSupport.parkNanos(PROBE_NANOS);
			long now = System.nanoTime();
			longestStall.accumulateAndGet(now - last, Math::max);
			last = now;
		}
	}

	private static void write(FileChannel file, ByteBuffer chunk) {
		chunk.flip();
		try {
			// One thread's chunk at a time, whole: appends from several threads must not
			// interleave.
			synchronized (file) {
				while (chunk.hasRemaining()) {
					file.write(chunk);
				}
			}
		}
		catch (IOException ex) {
			throw new IllegalStateException("Could not write IDs", ex);
		}
		chunk.clear();
	}

	private static void status(LongAdder issued, LongAdder failures, LongAdder laterFailures, AtomicLong longestCall,
			AtomicLong longestPause, AtomicLong longestStall, List<CridNode> nodes) {
		System.out.println("status issued=" + issued.sum() + " failures=" + failures.sum() + " longestCallMs="
				+ TimeUnit.NANOSECONDS.toMillis(longestCall.get()) + " laterFailures=" + laterFailures.sum()
				+ " longestPauseMs=" + TimeUnit.NANOSECONDS.toMillis(longestPause.get()) + " longestStallMs="
				+ TimeUnit.NANOSECONDS.toMillis(longestStall.get()) + " stalls="
				+ nodes.stream().mapToLong((node) -> node.stats().stalls()).sum());
		System.out.flush();
	}

}
