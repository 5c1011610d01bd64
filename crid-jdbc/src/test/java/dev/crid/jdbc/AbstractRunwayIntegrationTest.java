package dev.crid.jdbc;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.crid.CridException;
import dev.crid.CridNode;
import dev.crid.CridStats;
import dev.crid.testsupport.FaultLoad;
import dev.crid.testsupport.FaultProxy;
import dev.crid.testsupport.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A node with a runway rides out an outage of half its runway between it and its
 * PostgreSQL registry: it serves a steady rate (two callers, each taking their share
 * every 10 ms, never more) through a {@link FaultProxy} and a HikariCP pool, the link is
 * cut (or turned into a black hole, which answers nothing and refuses nothing) once the
 * node holds its runway at the rate it measured, and during the cut and after the heal no
 * call fails, none waits for the registry ({@link CridStats#stalls()}), no ID repeats,
 * and the node tops its stock up again once the registry is back. One short subclass per
 * length.
 *
 * <p>
 * Why half: the node stocks what it handed out over its last runway, and a block of the
 * stock expires 1.25 times the runway after it was reserved. A loaded machine that held
 * the callers below their rate before the cut leaves a smaller stock, or an older one,
 * and lets them run at their rate during it; with a cut a second shorter than the runway,
 * two calls waited about 0.25 s for the registry near the heal in two runs out of two
 * beside another build (none on a quiet machine). Half the runway leaves room for both.
 */
abstract class AbstractRunwayIntegrationTest {

	private static final int CALLERS = 2;

	private static final long BATCH_EVERY_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

	private final Duration runway;

	private final long rate;

	private final int idsPerBatch;

	private final boolean blackHole;

	private final String table = "crid_runway_" + ProcessHandle.current().pid();

	/**
	 * @param runway the node's runway, and how long the link is cut
	 * @param rate IDs a second, in all
	 * @param blackHole whether the outage is a black hole rather than a cut
	 */
	AbstractRunwayIntegrationTest(Duration runway, long rate, boolean blackHole) {
		this.runway = runway;
		this.blackHole = blackHole;
		this.rate = rate;
		this.idsPerBatch = (int) (rate * BATCH_EVERY_NANOS / TimeUnit.SECONDS.toNanos(1) / CALLERS);
	}

	@Test
	void aNodeRidesOutACutOfHalfItsRunwayWithoutACallWaitingForTheRegistry() throws Exception {
		TestDatabase database = TestDatabase.POSTGRESQL;
		try (HikariDataSource admin = database.dataSource(1)) {
			JdbcTemplateRegistry.builder(new JdbcTemplate(admin)).tableName(this.table).build().ensureSchema();
			try (FaultProxy proxy = FaultProxy.inFrontOf(database); HikariDataSource pool = pool(proxy, database)) {
				JdbcTemplateRegistry registry = JdbcTemplateRegistry.builder(new JdbcTemplate(pool))
					.tableName(this.table)
					.queryTimeout(Duration.ofSeconds(2))
					.build();
				try (CridNode node = CridNode.builder(registry).runway(this.runway).build()) {
					node.warmUp();
					PacedLoad load = new PacedLoad(node, this.idsPerBatch);
					long[] ids;
					Duration cut = this.runway.dividedBy(2);
					long idsAtCut;
					long idsAtHeal;
					long stallsAtCut;
					long reservationsAtHeal;
					try {
						// The rate is measured over the runway (a minute at most): once
						// the
						// node has run that long and 2 s more, it holds the IDs of its
						// last
						// runway and a block.
						long window = Math.min(this.runway.toSeconds(), 60);
						await().atMost(Duration.ofSeconds(window + 30))
							.pollInterval(Duration.ofMillis(100))
							.until(() -> load.issued() > (window + 2) * this.rate
									&& node.stats().runway().compareTo(this.runway) >= 0
									&& node.stats().runway().compareTo(this.runway.multipliedBy(2)) < 0);
						idsAtCut = load.issued();
						stallsAtCut = node.stats().stalls();
						if (this.blackHole) {
							proxy.blackHole();
						}
						else {
							proxy.cut();
						}
						TimeUnit.NANOSECONDS.sleep(cut.toNanos());
						proxy.heal();
						idsAtHeal = load.issued();
						reservationsAtHeal = node.stats().prefetchAllocations().successes();
						await().atMost(Duration.ofSeconds(10))
							.until(() -> node.stats().prefetchAllocations().successes() > reservationsAtHeal
									&& node.stats().runway().compareTo(this.runway) >= 0);
					}
					finally {
						ids = load.stop();
					}
					long duplicates = FaultLoad.duplicates(ids);
					long waited = node.stats().stalls() - stallsAtCut;
					System.out.printf(
							"runway %s, " + (this.blackHole ? "black hole" : "cut")
									+ " %s at %,d IDs/s: %,d IDs during the cut, %d failed calls, %d calls waited "
									+ "for the registry, longest call %s, %d duplicates, %,d IDs in all%n",
							this.runway, cut, this.rate, idsAtHeal - idsAtCut, load.failures(), waited,
							load.longestCall(), duplicates, ids.length);
					assertThat(load.unexpected()).isEmpty();
					assertThat(load.failures()).as("failed calls").isZero();
					// A caller served from the stock never waits for the registry, so
					// what it waits is what the machine holds its thread up: the longest
					// call is printed, not asserted.
					assertThat(waited).as("calls that waited for the registry from the cut on").isZero();
					assertThat(duplicates).as("IDs issued twice").isZero();
					// Else the callers barely called during the cut.
					assertThat(idsAtHeal - idsAtCut).as("IDs issued during the cut")
						.isGreaterThanOrEqualTo(this.rate * cut.toMillis() / 1000 / 4);
				}
			}
			finally {
				TestDatabase.dropRegistryTables(admin, this.table);
			}
		}
	}

	private static HikariDataSource pool(FaultProxy proxy, TestDatabase database) {
		TestDatabase.Endpoint endpoint = database.endpoint();
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(proxy.jdbcUrl());
		config.setUsername(endpoint.username());
		config.setPassword(endpoint.password());
		config.setMaximumPoolSize(2);
		config.setConnectionTimeout(TestDatabase.POOL_CONNECTION_TIMEOUT.toMillis());
		config.setValidationTimeout(Duration.ofSeconds(1).toMillis());
		config.setPoolName("crid-runway-test");
		return new HikariDataSource(config);
	}

	/**
	 * Callers that each take a batch of IDs every 10 ms on a fixed schedule (a late batch
	 * is followed at once by the next, but a caller more than a batch behind drops the
	 * batches it missed: they never take more than their rate), recording every ID, the
	 * longest call, and every failure.
	 */
	private static final class PacedLoad {

		private final int idsPerBatch;

		private final AtomicBoolean running = new AtomicBoolean(true);

		private final List<Thread> callers = new ArrayList<>();

		private final ConcurrentLinkedQueue<long[]> ids = new ConcurrentLinkedQueue<>();

		private final ConcurrentLinkedQueue<Throwable> unexpected = new ConcurrentLinkedQueue<>();

		private final LongAdder issued = new LongAdder();

		private final LongAdder failures = new LongAdder();

		private final AtomicLong longestCallNanos = new AtomicLong();

		PacedLoad(CridNode node, int idsPerBatch) {
			this.idsPerBatch = idsPerBatch;
			for (int i = 0; i < CALLERS; i++) {
				Thread caller = new Thread(() -> call(node), "runway-load-" + (i + 1));
				caller.setDaemon(true);
				this.callers.add(caller);
			}
			this.callers.forEach(Thread::start);
		}

		private void call(CridNode node) {
			long[] taken = new long[1 << 20];
			int count = 0;
			long next = System.nanoTime();
			try {
				while (this.running.get()) {
					for (int i = 0; i < this.idsPerBatch; i++) {
						long started = System.nanoTime();
						try {
							long id = node.nextId();
							took(started);
							if (count == taken.length) {
								taken = Arrays.copyOf(taken, taken.length * 2);
							}
							taken[count++] = id;
							this.issued.increment();
						}
						catch (CridException ex) {
							took(started);
							this.failures.increment();
						}
					}
					next = Math.max(next + BATCH_EVERY_NANOS, System.nanoTime() - BATCH_EVERY_NANOS);
					LockSupport.parkNanos(next - System.nanoTime());
				}
			}
			catch (Throwable ex) {
				this.unexpected.add(ex);
			}
			finally {
				this.ids.add(Arrays.copyOf(taken, count));
			}
		}

		/** Records how long a call took, without what the caller did with its ID. */
		private void took(long started) {
			this.longestCallNanos.accumulateAndGet(System.nanoTime() - started, Math::max);
		}

		long issued() {
			return this.issued.sum();
		}

		long failures() {
			return this.failures.sum();
		}

		Duration longestCall() {
			return Duration.ofNanos(this.longestCallNanos.get());
		}

		List<Throwable> unexpected() {
			return List.copyOf(this.unexpected);
		}

		/**
		 * Stops the callers, checks that each ended, and returns every ID taken, sorted.
		 */
		long[] stop() throws InterruptedException {
			this.running.set(false);
			for (Thread caller : this.callers) {
				caller.join(TimeUnit.SECONDS.toMillis(10));
				assertThat(caller.isAlive()).as("%s still running after it was stopped", caller.getName()).isFalse();
			}
			return this.ids.stream().flatMapToLong(Arrays::stream).sorted().toArray();
		}

	}

}
