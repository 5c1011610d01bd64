package dev.crid;

import java.util.HashSet;
import java.util.Set;

/** The threads nodes start for themselves, for tests that count or await them. */
final class NodeThreads {

	private NodeThreads() {
	}

	/**
	 * The live threads named as a node's own that were not alive among {@code before}.
	 */
	static Set<Thread> startedSince(Set<Thread> before) {
		Set<Thread> threads = new HashSet<>();
		for (Thread thread : Thread.getAllStackTraces().keySet()) {
			if (!before.contains(thread) && thread.isAlive() && thread.getName().startsWith("crid-prefetch-")) {
				threads.add(thread);
			}
		}
		return threads;
	}

	/** The threads alive now. */
	static Set<Thread> now() {
		return Set.copyOf(Thread.getAllStackTraces().keySet());
	}

}
