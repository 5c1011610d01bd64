package dev.crid.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * How often the operating system took the core from the calling thread: Linux's count of
 * involuntary context switches in {@code /proc/thread-self/status}; -1 where that file is
 * not available.
 */
final class ThreadSwitches {

	private static final Path STATUS = Path.of("/proc/thread-self/status");

	private static final String FIELD = "nonvoluntary_ctxt_switches:";

	private ThreadSwitches() {
	}

	static long involuntary() {
		try {
			for (String line : Files.readAllLines(STATUS)) {
				if (line.startsWith(FIELD)) {
					return Long.parseLong(line.substring(FIELD.length()).trim());
				}
			}
		}
		catch (IOException | RuntimeException ex) {
			// Not Linux, or not readable: report none.
		}
		return -1;
	}

}
