package dev.crid;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Drives a node's parts through thousands of seeded schedules ({@link ScheduleRun}) and checks each against
 * the model. A failing seed replays the same schedule: {@code -Dcrid.schedule.seed=N}; more schedules with
 * {@code -Dcrid.schedules=N} (default 2,000).
 */
class CridNodeScheduleTest {

	@Test
	void noScheduleRepeatsAnIdOrHoldsACallerOrWedgesTheNode() {
		Logger logger = Logger.getLogger(CridNode.class.getName());
		Level level = logger.getLevel();
		logger.setLevel(Level.OFF); // thousands of outages would otherwise fill the build's output
		try {
			String only = System.getProperty("crid.schedule.seed");
			long first = (only != null) ? Long.parseLong(only) : 1;
			int count = (only != null) ? 1 : Integer.getInteger("crid.schedules", 2_000);
			List<String> failed = new ArrayList<>();
			for (long seed = first; seed < first + count; seed++) {
				ScheduleRun run = new ScheduleRun(seed);
				List<String> violations = run.run();
				if (!violations.isEmpty()) {
					failed.add(run + ": " + violations.get(0) + (violations.size() > 1
							? " (and " + (violations.size() - 1) + " more)" : ""));
				}
			}
			assertThat(failed).as("schedules that broke the model").isEmpty();
		}
		finally {
			logger.setLevel(level);
		}
	}

}
