package dev.crid.benchmarks.capacity;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

import com.zaxxer.hikari.HikariDataSource;
import dev.crid.CridLayout;
import dev.crid.benchmarks.BenchmarkDatabase;
import dev.crid.jdbc.JdbcTemplateRegistry;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Measures how many registry calls one row takes flat out, just before a scenario and on
 * the same machine at the same load: as many threads as the scenario's workers have
 * connections call {@link JdbcTemplateRegistry#allocate} on the current second of a table
 * of its own, each on a connection of its own, for a few seconds. Beside it, the calls a
 * scenario made tell whether the registry was near its limit.
 */
final class RowProbe {

	private RowProbe() {
	}

	/**
	 * Returns the calls per second the row took.
	 */
	static double callsPerSecond(BenchmarkDatabase database, String table, int threads, long seconds)
			throws InterruptedException {
		try (HikariDataSource dataSource = database.dataSource(threads)) {
			JdbcTemplate jdbcTemplate = new JdbcTemplate(dataSource);
			jdbcTemplate.execute("DROP TABLE IF EXISTS " + table);
			jdbcTemplate.execute("DROP TABLE IF EXISTS " + table + "_meta");
			JdbcTemplateRegistry registry = JdbcTemplateRegistry.builder(jdbcTemplate).tableName(table).build();
			registry.ensureSchema();
			try {
				return measure(registry, threads, seconds);
			}
			finally {
				jdbcTemplate.execute("DROP TABLE IF EXISTS " + table);
				jdbcTemplate.execute("DROP TABLE IF EXISTS " + table + "_meta");
			}
		}
	}

	private static double measure(JdbcTemplateRegistry registry, int threads, long seconds)
			throws InterruptedException {
		LongAdder calls = new LongAdder();
		long start = System.nanoTime();
		long end = start + TimeUnit.SECONDS.toNanos(seconds);
		List<Thread> callers = new ArrayList<>();
		for (int i = 0; i < threads; i++) {
			Thread caller = new Thread(() -> {
				while (System.nanoTime() < end) {
					registry.allocate(CridLayout.DEFAULT.timestampAt(Instant.now()), 10_000);
					calls.increment();
				}
			}, "row-probe-" + i);
			callers.add(caller);
			caller.start();
		}
		for (Thread caller : callers) {
			caller.join();
		}
		return calls.sum() / ((System.nanoTime() - start) / 1e9);
	}

}
