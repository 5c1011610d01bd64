package dev.crid.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import dev.crid.RegistryException;

/**
 * Runs registry work on a connection of its own, detached from whatever the calling thread is doing, and
 * bounds how long the caller waits for it.
 *
 * <p>The work runs on a crid-jdbc worker thread. That thread has no transaction bound to it, so the
 * connection it takes from the {@link DataSource} is a fresh pooled one, never the caller's transactional
 * connection, even when the data source is transaction-aware. The caller waits at most the timeout for
 * the whole of it (getting a connection, the statements, the commit); then it gets a
 * {@link RegistryException} while the worker finishes or gives up on its own: a worker still waiting for
 * a pooled connection is interrupted, and a worker already running statements is bounded by the query
 * timeout and by a network timeout slightly longer than it, so a dead server cannot hold it forever.
 */
final class DetachedConnections {

	private static final long NETWORK_TIMEOUT_GRACE_MILLIS = 1_000;

	private static final AtomicInteger threadNumbers = new AtomicInteger();

	private static final ThreadPoolExecutor workers = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 30,
			TimeUnit.SECONDS, new SynchronousQueue<>(), (task) -> {
				Thread thread = new Thread(task, "crid-jdbc-" + threadNumbers.incrementAndGet());
				thread.setDaemon(true);
				return thread;
			});

	private final DataSource dataSource;

	private final Duration timeout;

	private final int networkTimeoutMillis;

	DetachedConnections(DataSource dataSource, Duration timeout) {
		this.dataSource = dataSource;
		this.timeout = timeout;
		this.networkTimeoutMillis = (int) Math.min(Integer.MAX_VALUE,
				timeout.toMillis() + NETWORK_TIMEOUT_GRACE_MILLIS);
	}

	/**
	 * Runs the work on a fresh connection and returns its result.
	 * @param task what the work does, for messages ("reserve 10 sequence numbers ...")
	 * @throws SQLException as thrown by the work or by the data source
	 * @throws RegistryException when the work does not finish within the timeout, or the caller is
	 * interrupted
	 */
	<T> T run(String task, Work<T> work) throws SQLException {
		Attempt<T> attempt = new Attempt<>(work);
		Future<T> future;
		try {
			future = workers.submit(attempt);
		}
		catch (RejectedExecutionException ex) {
			throw new RegistryException("Could not " + task + ": no crid-jdbc worker thread available", ex);
		}
		try {
			return future.get(this.timeout.toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (TimeoutException ex) {
			attempt.abandon();
			throw new RegistryException("Could not " + task + " within the query timeout of " + this.timeout
					+ ": the database did not answer in time, or no pooled connection was free (each allocation "
					+ "takes a connection of its own, besides any the calling thread holds)", ex);
		}
		catch (InterruptedException ex) {
			attempt.abandon();
			Thread.currentThread().interrupt();
			throw new RegistryException("Interrupted while waiting to " + task, ex);
		}
		catch (ExecutionException ex) {
			Throwable cause = ex.getCause();
			if (cause instanceof SQLException sqlException) {
				throw sqlException;
			}
			if (cause instanceof RuntimeException runtimeException) {
				throw runtimeException;
			}
			if (cause instanceof Error error) {
				throw error;
			}
			throw new RegistryException("Could not " + task, cause);
		}
	}

	/**
	 * Work to do on a connection.
	 * @param <T> the result type
	 */
	@FunctionalInterface
	interface Work<T> {

		T run(Connection connection) throws SQLException;

	}

	/**
	 * One run of work on a worker thread. The caller and the worker agree under the attempt's lock on
	 * whether the worker is still wanted, so an interrupt meant for a connection wait never reaches a later
	 * task on the same thread.
	 */
	private final class Attempt<T> implements Callable<T> {

		private final Work<T> work;

		private Thread worker;

		private boolean acquiring = true;

		private boolean abandoned;

		Attempt(Work<T> work) {
			this.work = work;
		}

		@Override
		public T call() throws SQLException {
			synchronized (this) {
				if (this.abandoned) {
					return null;
				}
				this.worker = Thread.currentThread();
			}
			Connection connection;
			try {
				connection = DetachedConnections.this.dataSource.getConnection();
			}
			catch (SQLException | RuntimeException ex) {
				if (leave()) {
					return null;
				}
				throw ex;
			}
			if (leave()) {
				close(connection);
				return null;
			}
			try (connection) {
				int previousTimeout = applyNetworkTimeout(connection);
				try {
					return this.work.run(connection);
				}
				finally {
					restoreNetworkTimeout(connection, previousTimeout);
				}
			}
		}

		/** Ends the connection wait; returns whether the caller has given up (clearing its interrupt). */
		private synchronized boolean leave() {
			this.acquiring = false;
			if (this.abandoned) {
				Thread.interrupted();
				return true;
			}
			return false;
		}

		synchronized void abandon() {
			this.abandoned = true;
			if (this.acquiring && this.worker != null) {
				this.worker.interrupt();
			}
		}

		private int applyNetworkTimeout(Connection connection) {
			try {
				int previous = connection.getNetworkTimeout();
				connection.setNetworkTimeout(workers, DetachedConnections.this.networkTimeoutMillis);
				return previous;
			}
			catch (SQLException | RuntimeException | AbstractMethodError ex) {
				// A driver without network timeouts still has the query timeout and the caller's deadline.
				return -1;
			}
		}

		private void restoreNetworkTimeout(Connection connection, int previous) {
			if (previous < 0) {
				return;
			}
			try {
				connection.setNetworkTimeout(workers, previous);
			}
			catch (SQLException | RuntimeException ex) {
				// The connection is broken; the pool will discard it.
			}
		}

		private void close(Connection connection) {
			try {
				connection.close();
			}
			catch (SQLException ex) {
				// Nothing was done on it.
			}
		}

	}

}
