package dev.crid.benchmarks;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.LongSupplier;

import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Runs {@value #THREADS} virtual threads at once, each taking {@value #IDS_PER_THREAD}
 * numbers from the source under test. Virtual threads came with Java 21 and the
 * benchmarks are built for Java 17, so the executor is looked up at run time; on an older
 * Java the trial stops at once, saying what it needs.
 */
@State(Scope.Benchmark)
public class VirtualThreads {

	/** How many virtual threads take numbers at once. */
	static final int THREADS = 1_000;

	/** How many numbers each virtual thread takes. */
	static final int IDS_PER_THREAD = 10_000;

	/** Numbers taken per benchmark invocation. */
	static final int IDS_PER_INVOCATION = THREADS * IDS_PER_THREAD;

	private ExecutorService executor;

	/**
	 * Starts the executor that gives every task a virtual thread of its own.
	 * @throws IllegalStateException on a Java without virtual threads
	 */
	@Setup
	public void start() {
		this.executor = newVirtualThreadPerTaskExecutor();
	}

	/**
	 * Stops the executor.
	 */
	@TearDown
	public void stop() {
		this.executor.shutdownNow();
	}

	/**
	 * Has every virtual thread take its numbers from the source, and waits for all of
	 * them.
	 * @param source the generator under test
	 * @return the numbers combined, so that none of the work can be left out
	 * @throws Exception if a virtual thread failed or the wait was interrupted
	 */
	long take(LongSupplier source) throws Exception {
		List<Callable<Long>> tasks = new ArrayList<>(THREADS);
		for (int i = 0; i < THREADS; i++) {
			tasks.add(() -> {
				long combined = 0;
				for (int n = 0; n < IDS_PER_THREAD; n++) {
					combined ^= source.getAsLong();
				}
				return combined;
			});
		}
		long combined = 0;
		for (Future<Long> task : this.executor.invokeAll(tasks)) {
			combined ^= task.get();
		}
		return combined;
	}

	/**
	 * Java 21's {@code Executors.newVirtualThreadPerTaskExecutor()}, looked up at run
	 * time.
	 */
	static ExecutorService newVirtualThreadPerTaskExecutor() {
		MethodType type = MethodType.methodType(ExecutorService.class);
		try {
			return (ExecutorService) MethodHandles.publicLookup()
				.findStatic(Executors.class, "newVirtualThreadPerTaskExecutor", type)
				.invoke();
		}
		catch (NoSuchMethodException ex) {
			throw new IllegalStateException("The virtual thread benchmarks need Java 21 or later, but this is Java "
					+ Runtime.version() + ": run them with a newer java (run-benchmarks.sh takes it from "
					+ "JAVA_VIRTUAL_THREADS)", ex);
		}
		catch (Throwable ex) {
			throw new IllegalStateException("Could not start a virtual thread per task executor", ex);
		}
	}

}
