package dev.crid.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.Executor;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.datasource.TransactionAwareDataSourceProxy;

/**
 * Hands registry work a connection of its own, on the calling thread, that never takes
 * part in a transaction the calling thread may be in.
 *
 * <p>
 * A plain {@link DataSource} (a connection pool) hands out a fresh connection whatever
 * transaction the thread is in; only a transaction-aware proxy returns the transaction's
 * connection, so the registry works on the data source behind such a proxy. While a
 * HikariCP pool holds no connection at all (after an outage), it connects straight to the
 * database instead ({@link PoolBypass}). The work is bounded by the pool's own connection
 * timeout while it waits for a connection, then by the statements' query timeout, and by
 * a network timeout slightly longer than that, so a server that stops answering cannot
 * hold the thread forever.
 */
final class RegistryConnections {

	private static final long NETWORK_TIMEOUT_GRACE_MILLIS = 1_000;

	/**
	 * Drivers want an executor for network timeouts; none of theirs needs a thread of
	 * crid's.
	 */
	private static final Executor CALLING_THREAD = Runnable::run;

	private final DataSource dataSource;

	private final @Nullable PoolBypass bypass;

	private final int networkTimeoutMillis;

	RegistryConnections(DataSource dataSource, Duration timeout) {
		this.dataSource = outsideTransactions(dataSource);
		this.bypass = PoolBypass.of(this.dataSource);
		this.networkTimeoutMillis = (int) Math.min(Integer.MAX_VALUE,
				timeout.toMillis() + NETWORK_TIMEOUT_GRACE_MILLIS);
	}

	/** Returns the data source behind any transaction-aware proxies. */
	static DataSource outsideTransactions(DataSource dataSource) {
		DataSource current = dataSource;
		while (current instanceof TransactionAwareDataSourceProxy proxy && proxy.getTargetDataSource() != null) {
			current = proxy.getTargetDataSource();
		}
		return current;
	}

	/**
	 * Runs the work on a connection of its own and returns its result.
	 * @throws SQLException as thrown by the work or by the data source
	 */
	<T> @Nullable T run(Work<T> work) throws SQLException {
		try (Connection connection = connection()) {
			int previousTimeout = applyNetworkTimeout(connection);
			try {
				return work.run(connection);
			}
			finally {
				restoreNetworkTimeout(connection, previousTimeout);
			}
		}
	}

	private Connection connection() throws SQLException {
		return (this.bypass != null) ? this.bypass.connection() : this.dataSource.getConnection();
	}

	private int applyNetworkTimeout(Connection connection) {
		try {
			int previous = connection.getNetworkTimeout();
			connection.setNetworkTimeout(CALLING_THREAD, this.networkTimeoutMillis);
			return previous;
		}
		catch (SQLException | RuntimeException | AbstractMethodError ex) {
			// A driver without network timeouts still has the query timeout.
			return -1;
		}
	}

	private static void restoreNetworkTimeout(Connection connection, int previous) {
		if (previous < 0) {
			return;
		}
		try {
			connection.setNetworkTimeout(CALLING_THREAD, previous);
		}
		catch (SQLException | RuntimeException ex) {
			// The connection is broken; the pool will discard it.
		}
	}

	/**
	 * Work to do on a connection.
	 *
	 * @param <T> the result type
	 */
	@FunctionalInterface
	interface Work<T> {

		@Nullable T run(Connection connection) throws SQLException;

	}

}
