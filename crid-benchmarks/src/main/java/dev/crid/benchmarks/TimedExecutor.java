package dev.crid.benchmarks;

import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * One daemon thread that runs a node's registry calls, as the node's own would, logging
 * how long each task waited between being handed over and starting: the time it takes to
 * wake the thread and give it a core.
 */
final class TimedExecutor implements Executor, AutoCloseable {

	private final ExecutorService executor = Executors.newSingleThreadExecutor((task) -> {
		Thread thread = new Thread(task, "crid-benchmark-prefetch");
		thread.setDaemon(true);
		return thread;
	});

	private final DurationLog waits = new DurationLog();

	@Override
	public void execute(Runnable task) {
		long handedOver = System.nanoTime();
		this.executor.execute(() -> {
			this.waits.record(System.nanoTime() - handedOver);
			task.run();
		});
	}

	DurationLog waits() {
		return this.waits;
	}

	@Override
	public void close() {
		this.executor.shutdownNow();
		try {
			this.executor.awaitTermination(5, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
