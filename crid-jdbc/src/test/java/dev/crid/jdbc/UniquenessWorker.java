package dev.crid.jdbc;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.crid.CridNode;

/**
 * One process of {@link AbstractCrossProcessUniquenessIntegrationTest}: its own
 * connection pool, several nodes with small blocks of different sizes, several threads
 * per node, all sharing one registry table with the other processes. It writes every ID
 * it issued to a file, as big-endian longs.
 *
 * <p>
 * Arguments: JDBC URL, user, password, table, seed, nodes, threads per node, IDs to
 * issue, output file.
 */
public final class UniquenessWorker {

	private UniquenessWorker() {
	}

	/**
	 * Runs the process.
	 * @param args see the class description
	 * @throws Exception on any failure, which makes the process exit with a non-zero
	 * status
	 */
	public static void main(String[] args) throws Exception {
		String url = args[0];
		String user = args[1];
		String password = args[2];
		String table = args[3];
		SplittableRandom random = new SplittableRandom(Long.parseLong(args[4]));
		int nodeCount = Integer.parseInt(args[5]);
		int threadsPerNode = Integer.parseInt(args[6]);
		int idCount = Integer.parseInt(args[7]);
		Path output = Path.of(args[8]);
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(url);
		config.setUsername(user);
		config.setPassword(password);
		config.setMaximumPoolSize(nodeCount + 1);
		try (HikariDataSource dataSource = new HikariDataSource(config)) {
			JdbcTemplateRegistry registry = JdbcTemplateRegistry.builder(new JdbcTemplate(dataSource))
				.tableName(table)
				.build();
			List<CridNode> nodes = new ArrayList<>();
			for (int i = 0; i < nodeCount; i++) {
				long blockSize = random.nextLong(1, 101);
				nodes.add(CridNode.builder(registry)
					.blockSize(blockSize)
					.threshold(blockSize / 2)
					.allocationTimeout(Duration.ofSeconds(20))
					.build());
			}
			long[] ids = new long[idCount];
			AtomicInteger next = new AtomicInteger();
			List<Thread> threads = new ArrayList<>();
			List<Throwable> failures = new ArrayList<>();
			long started = System.nanoTime();
			for (CridNode node : nodes) {
				for (int t = 0; t < threadsPerNode; t++) {
					Thread thread = new Thread(() -> {
						int index;
						while ((index = next.getAndIncrement()) < idCount) {
							ids[index] = node.nextId();
						}
					});
					thread.setUncaughtExceptionHandler((failed, ex) -> {
						synchronized (failures) {
							failures.add(ex);
						}
					});
					threads.add(thread);
					thread.start();
				}
			}
			for (Thread thread : threads) {
				thread.join();
			}
			long millis = Duration.ofNanos(System.nanoTime() - started).toMillis();
			if (!failures.isEmpty()) {
				failures.get(0).printStackTrace();
				System.exit(2);
			}
			write(ids, output);
			for (CridNode node : nodes) {
				System.out.println("block " + node.blockSize() + ": " + node.stats());
				node.close();
			}
			System.out.println(idCount + " IDs in " + millis + " ms");
		}
	}

	private static void write(long[] ids, Path output) throws IOException {
		try (DataOutputStream out = new DataOutputStream(
				new BufferedOutputStream(Files.newOutputStream(output), 1 << 16))) {
			for (long id : ids) {
				out.writeLong(id);
			}
		}
	}

}
