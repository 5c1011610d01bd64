package dev.crid.etcd;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import dev.crid.RegistryException;

/**
 * Runs the registry's requests to etcd on the calling thread, each bounded by what is
 * left of its operation's timeout, and turns whatever goes wrong into a
 * {@link RegistryException}: a request that does not answer in time is cancelled and
 * reported as retryable; a thread interrupted before or during a request cancels it,
 * keeps its interrupt status and is told so, retryably, at once; a failure of etcd or of
 * the client is reported as {@link EtcdFailures} classifies it.
 */
final class EtcdCalls {

	private final Duration timeout;

	EtcdCalls(Duration timeout) {
		this.timeout = timeout;
	}

	/** The {@link System#nanoTime()} by which an operation starting now must end. */
	long deadline() {
		return System.nanoTime() + this.timeout.toNanos();
	}

	/**
	 * Sends a request and waits for its answer until the deadline.
	 * @param task what the request is for, as the message completes "Could not ..."
	 */
	<T> T await(String task, long deadline, Supplier<CompletableFuture<T>> request) {
		if (Thread.currentThread().isInterrupted()) {
			throw interrupted(task, null);
		}
		if (deadline - System.nanoTime() <= 0) {
			throw timedOut(task, null);
		}
		CompletableFuture<T> answer;
		try {
			answer = request.get();
		}
		catch (RuntimeException ex) {
			throw EtcdFailures.failure(task, this.timeout, ex);
		}
		try {
			return answer.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
		}
		catch (InterruptedException ex) {
			answer.cancel(true);
			Thread.currentThread().interrupt();
			throw interrupted(task, ex);
		}
		catch (TimeoutException ex) {
			answer.cancel(true);
			throw timedOut(task, ex);
		}
		catch (ExecutionException ex) {
			throw EtcdFailures.failure(task, this.timeout, (ex.getCause() != null) ? ex.getCause() : ex);
		}
	}

	/**
	 * Takes the lock, waiting for it until the deadline.
	 */
	void awaitTurn(ReentrantLock lock, String task, long deadline) {
		try {
			if (!lock.tryLock(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
				throw new RegistryException("Could not " + task + ": the reservations before it through this "
						+ "registry took the whole timeout of " + this.timeout);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw interrupted(task, ex);
		}
	}

	/**
	 * Waits a random moment of at most {@code maxMillis} before a request is sent again,
	 * unless the deadline comes first.
	 */
	void pause(String task, long maxMillis, long deadline) {
		long nanos = Math.min(TimeUnit.MILLISECONDS.toNanos(ThreadLocalRandom.current().nextLong(maxMillis + 1)),
				deadline - System.nanoTime());
		if (nanos <= 0) {
			return;
		}
		try {
			TimeUnit.NANOSECONDS.sleep(nanos);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw interrupted(task, ex);
		}
	}

	private RegistryException timedOut(String task, @Nullable TimeoutException cause) {
		return new RegistryException(
				"Could not " + task + ": etcd did not answer within the registry's timeout of " + this.timeout, cause);
	}

	private static RegistryException interrupted(String task, @Nullable InterruptedException cause) {
		return new RegistryException("Interrupted while trying to " + task
				+ "; the request to etcd was cancelled, and the thread keeps its interrupt status", cause);
	}

}
