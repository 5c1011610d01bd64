package dev.crid.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.pool.HikariPool;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.util.ClassUtils;

/**
 * Connects straight to the database while the application's HikariCP pool holds no
 * connection at all.
 *
 * <p>
 * A pool that lost every connection (the database went down, or the network to it)
 * reconnects on a thread of its own that backs off up to 5 seconds between attempts, so
 * after an outage it may stay empty for seconds after the database is back, and every
 * caller waits for it. The registry then opens a connection of its own, with the pool's
 * URL, credentials and properties, for each reservation, and returns to the pool as soon
 * as the pool has a connection again: IDs flow as soon as the database answers. A wait
 * for a pooled connection that began while the pool still held its dead connections is
 * taken in short steps, so it notices too when the pool empties. It costs at most one
 * extra connection per node, and only while the pool has none.
 */
final class PoolBypass {

	private static final Log logger = LogFactory.getLog(JdbcTemplateRegistry.class);

	private static final boolean HIKARI_PRESENT = ClassUtils.isPresent("com.zaxxer.hikari.HikariDataSource",
			PoolBypass.class.getClassLoader());

	private final HikariDataSource pool;

	private final DataSource direct;

	/**
	 * How long one wait for a pooled connection lasts before the pool is looked at again.
	 */
	private static final long STEP_MILLIS = 250;

	private volatile boolean bypassing;

	private PoolBypass(HikariDataSource pool, DataSource direct) {
		this.pool = pool;
		this.direct = direct;
	}

	/**
	 * Returns the bypass of a HikariCP pool configured with a JDBC URL or a data source
	 * of its own, else {@code null}. Only a pool given as it is: one behind a wrapper of
	 * the application's (tracing, routing, session settings) is left to the wrapper.
	 */
	static @Nullable PoolBypass of(DataSource dataSource) {
		if (!HIKARI_PRESENT) {
			return null;
		}
		return HikariPools.bypass(dataSource);
	}

	/** Touches HikariCP's classes only when HikariCP is present. */
	private static final class HikariPools {

		static @Nullable PoolBypass bypass(DataSource dataSource) {
			if (!(dataSource instanceof HikariDataSource pool)) {
				return null;
			}
			DataSource direct = direct(pool);
			return (direct != null) ? new PoolBypass(pool, direct) : null;
		}

	}

	private static @Nullable DataSource direct(HikariDataSource pool) {
		if (pool.getDataSource() != null) {
			return pool.getDataSource();
		}
		if (pool.getJdbcUrl() == null) {
			return null;
		}
		DriverManagerDataSource direct = new DriverManagerDataSource(pool.getJdbcUrl(), pool.getUsername(),
				pool.getPassword());
		direct.setConnectionProperties(pool.getDataSourceProperties());
		if (pool.getDriverClassName() != null) {
			direct.setDriverClassName(pool.getDriverClassName());
		}
		return direct;
	}

	/**
	 * Returns a connection: straight from the database while the pool holds none, else
	 * from the pool, waited for in short steps, so that a pool that empties meanwhile (it
	 * found its connections dead after an outage, and reconnects with backoff) is noticed
	 * within a step. Waits the pool's connection timeout at most, in all.
	 */
	Connection connection() throws SQLException {
		long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(this.pool.getConnectionTimeout());
		while (true) {
			if (!(this.pool.getHikariPoolMXBean() instanceof HikariPool running) || this.pool.isClosed()) {
				// Not started yet, or closed: the pool itself starts, or says so.
				return this.pool.getConnection();
			}
			boolean empty = running.getTotalConnections() == 0;
			if (empty != this.bypassing) {
				this.bypassing = empty;
				logger.info(empty
						? "The connection pool of the crid registry holds no connection: crid connects to "
								+ "the database directly until the pool has one again"
						: "The connection pool of the crid registry has connections again: crid uses it");
			}
			if (empty) {
				return this.direct.getConnection();
			}
			long leftMillis = (deadline - System.nanoTime() + 999_999) / 1_000_000;
			try {
				return running.getConnection(Math.max(1, Math.min(STEP_MILLIS, leftMillis)));
			}
			catch (SQLTransientConnectionException ex) {
				if (System.nanoTime() - deadline >= 0) {
					// The pool's message tells of the last step only.
					throw new SQLTransientConnectionException(
							"No free connection in pool " + this.pool.getPoolName()
									+ " within its connection timeout of " + this.pool.getConnectionTimeout()
									+ " ms (the last wait: " + ex.getMessage() + ")",
							ex.getSQLState(), ex.getErrorCode(), ex);
				}
			}
		}
	}

}
