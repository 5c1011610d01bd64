package dev.crid;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Drives a node's parts through thousands of seeded schedules ({@link ScheduleRun}) and
 * checks each against the model; and a node on its own threads through hundreds more in
 * real time ({@link OwnExecutorScheduleRun}). A failing seed replays the same schedule:
 * {@code -Dcrid.schedule.seed=N} (with {@code -Dtest=} naming the method); more schedules
 * with {@code -Dcrid.schedules=N} (default 2,000) and
 * {@code -Dcrid.ownExecutorSchedules=N} (default 200).
 */
class CridNodeScheduleTest {

	/**
	 * Schedules on the node's own threads run this many at a time: they mostly wait (for
	 * timeouts, idle threads, hung calls), so two cores carry several, and all of them
	 * take seconds rather than minutes.
	 */
	private static final int CONCURRENT_OWN_EXECUTOR_SCHEDULES = 8;

	/**
	 * Seeded schedules run this many at a time. Each runs one thread at a time and spends
	 * most of its time handing the baton from thread to thread, that is waiting to be
	 * scheduled, so several share two cores; each is a function of its seed alone, so
	 * running them side by side changes none.
	 */
	private static final int CONCURRENT_SCHEDULES = 4;

	@Test
	void noScheduleRepeatsAnIdOrHoldsACallerOrWedgesTheNode() throws Exception {
		Logger logger = Logger.getLogger(CridNode.class.getName());
		Level level = logger.getLevel();
		logger.setLevel(Level.OFF); // thousands of outages would otherwise fill the
									// build's output
		try {
			String only = System.getProperty("crid.schedule.seed");
			long first = (only != null) ? Long.parseLong(only) : 1;
			int count = (only != null) ? 1 : Integer.getInteger("crid.schedules", 2_000);
			Map<Long, String> failed = new ConcurrentSkipListMap<>();
			ExecutorService schedules = Executors.newFixedThreadPool(CONCURRENT_SCHEDULES);
			try {
				List<Future<?>> runs = new ArrayList<>();
				for (long seed = first; seed < first + count; seed++) {
					long thisSeed = seed;
					runs.add(schedules.submit(() -> {
						ScheduleRun run = new ScheduleRun(thisSeed);
						List<String> violations = run.run();
						if (!violations.isEmpty()) {
							failed.put(thisSeed, run + ": " + violations.get(0)
									+ (violations.size() > 1 ? " (and " + (violations.size() - 1) + " more)" : ""));
						}
					}));
				}
				for (Future<?> run : runs) {
					run.get(); // a schedule that threw fails the test with its exception
				}
			}
			finally {
				schedules.shutdownNow();
			}
			assertThat(failed.values()).as("schedules that broke the model").isEmpty();
		}
		finally {
			logger.setLevel(level);
		}
	}

	@Test
	void onItsOwnThreadsNoScheduleLeaksAThreadOrHoldsClose() throws InterruptedException {
		Logger logger = Logger.getLogger(CridNode.class.getName());
		Level level = logger.getLevel();
		logger.setLevel(Level.OFF);
		try {
			String only = System.getProperty("crid.schedule.seed");
			long first = (only != null) ? Long.parseLong(only) : 1;
			int count = (only != null) ? 1 : Integer.getInteger("crid.ownExecutorSchedules", 200);
			Map<Long, String> failed = new ConcurrentSkipListMap<>();
			AtomicInteger outages = new AtomicInteger();
			AtomicInteger pacingChecked = new AtomicInteger();
			Set<Long> unfinished = new ConcurrentSkipListSet<>();
			Semaphore running = new Semaphore(CONCURRENT_OWN_EXECUTOR_SCHEDULES);
			SchedulingLag.recentMax(0); // starts the meter before the first schedule
			for (long seed = first; seed < first + count; seed++) {
				running.acquire();
				OwnExecutorScheduleRun run = new OwnExecutorScheduleRun(seed);
				long thisSeed = seed;
				unfinished.add(seed);
				run.start(() -> {
					List<String> violations = run.violations();
					if (!violations.isEmpty()) {
						failed.put(thisSeed, run + ": " + violations.get(0)
								+ ((violations.size() > 1) ? " (and " + (violations.size() - 1) + " more)" : ""));
					}
					if (run.hadOutage()) {
						outages.incrementAndGet();
						if (run.pacingChecked()) {
							pacingChecked.incrementAndGet();
						}
					}
					unfinished.remove(thisSeed);
					running.release();
				});
			}
			// A schedule that never ends is a node that wedged.
			running.tryAcquire(CONCURRENT_OWN_EXECUTOR_SCHEDULES, 2, TimeUnit.MINUTES);
			assertThat(unfinished).as("schedules on the node's own threads that never ended").isEmpty();
			assertThat(failed.values()).as("schedules on the node's own threads that broke the model").isEmpty();
			// The check of pacing after an outage is skipped when a loaded machine blurs
			// what it measures; it must not be skipped so often that it checks nothing.
			assertThat(outages.get()).as("schedules that open with an outage").isPositive();
			assertThat(pacingChecked.get()).as("outages whose pacing could be checked, of " + outages)
				.isGreaterThanOrEqualTo(outages.get() / 2);
		}
		finally {
			logger.setLevel(level);
		}
	}

}
