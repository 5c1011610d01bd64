package dev.crid.actuate.health;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import dev.crid.Registry;

import org.jspecify.annotations.Nullable;

/**
 * Checks a registry for the health indicator without ever holding a health request longer
 * than a bound: the check runs on an executor, one at a time, and a request waits for it
 * at most {@code wait}. A check that has not answered by then is reported as such, and no
 * second one starts while it hangs, so a database that stops answering costs one blocked
 * thread, not one per request. A finished check's answer is reused for {@code reuse}, so
 * frequent probes do not become frequent queries.
 */
final class BoundedRegistryCheck {

	private final Registry registry;

	private final Executor executor;

	private final long waitNanos;

	private final long reuseNanos;

	private @Nullable Check latest;

	/**
	 * Creates the check of a registry through its own {@link Registry#check()}.
	 */
	BoundedRegistryCheck(Registry registry, Executor executor, Duration wait, Duration reuse) {
		this.registry = registry;
		this.executor = executor;
		this.waitNanos = wait.toNanos();
		this.reuseNanos = reuse.toNanos();
	}

	/**
	 * Returns the answer of a fresh check, or of the latest one if it is recent enough;
	 * or an answer saying how long a check has gone unanswered.
	 */
	Answer check() {
		Check check = current();
		try {
			return check.result.get(this.waitNanos, TimeUnit.NANOSECONDS);
		}
		catch (TimeoutException ex) {
			return Answer.unanswered(Duration.ofNanos(System.nanoTime() - check.started));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return Answer.unanswered(Duration.ofNanos(System.nanoTime() - check.started));
		}
		catch (ExecutionException ex) {
			return Answer.failed((ex.getCause() instanceof RuntimeException failure) ? failure
					: new IllegalStateException(ex.getCause()));
		}
	}

	private synchronized Check current() {
		long now = System.nanoTime();
		Check check = this.latest;
		// A check still running, or done recently enough, is reused.
		if (check != null && (!check.result.isDone() || now - check.started < this.reuseNanos)) {
			return check;
		}
		Check started = start(now);
		this.latest = started;
		return started;
	}

	private Check start(long now) {
		Check check = new Check(now, new CompletableFuture<>());
		try {
			this.executor.execute(() -> {
				try {
					check.result.complete(this.registry.check() ? Answer.OK : Answer.UNCHECKED);
				}
				catch (RuntimeException ex) {
					check.result.complete(Answer.failed(ex));
				}
			});
		}
		catch (RejectedExecutionException ex) {
			check.result.complete(Answer.failed(ex));
		}
		return check;
	}

	/** One check: when it started, and its answer once it has one. */
	private record Check(long started, CompletableFuture<Answer> result) {
	}

	/**
	 * What a check found.
	 *
	 * @param checked whether the registry could be checked at all
	 * @param failure why it cannot serve, or {@code null}
	 * @param unansweredFor how long the check has gone unanswered, or {@code null} if it
	 * answered
	 */
	record Answer(boolean checked, @Nullable RuntimeException failure, @Nullable Duration unansweredFor) {

		static final Answer OK = new Answer(true, null, null);

		static final Answer UNCHECKED = new Answer(false, null, null);

		static Answer failed(RuntimeException failure) {
			return new Answer(true, failure, null);
		}

		static Answer unanswered(Duration unansweredFor) {
			return new Answer(true, null, unansweredFor);
		}

	}

}
