package dev.crid.jdbc;

import java.sql.Connection;
import java.sql.SQLException;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.util.ClassUtils;

/**
 * Connects straight to the database while the application's HikariCP pool holds no connection at all.
 *
 * <p>A pool that lost every connection (the database went down, or the network to it) reconnects on a
 * thread of its own that backs off up to 5 seconds between attempts, so after an outage it may stay
 * empty for seconds after the database is back, and every caller waits for it. The registry then opens
 * a connection of its own, with the pool's URL, credentials and properties, for each allocation, and
 * returns to the pool as soon as the pool has a connection again: IDs flow as soon as the database
 * answers. It costs at most one extra connection per node, and only while the pool has none.
 */
final class PoolBypass {

	private static final Log logger = LogFactory.getLog(JdbcTemplateRegistry.class);

	private static final boolean HIKARI_PRESENT = ClassUtils.isPresent("com.zaxxer.hikari.HikariDataSource",
			PoolBypass.class.getClassLoader());

	private final HikariDataSource pool;

	private final DataSource direct;

	private volatile boolean bypassing;

	private PoolBypass(HikariDataSource pool, DataSource direct) {
		this.pool = pool;
		this.direct = direct;
	}

	/**
	 * Returns the bypass of a HikariCP pool configured with a JDBC URL or a data source of its own, else
	 * {@code null}.
	 */
	static PoolBypass of(DataSource dataSource) {
		if (!HIKARI_PRESENT) {
			return null;
		}
		try {
			if (!dataSource.isWrapperFor(HikariDataSource.class)) {
				return null;
			}
			HikariDataSource pool = dataSource.unwrap(HikariDataSource.class);
			DataSource direct = direct(pool);
			return (direct != null) ? new PoolBypass(pool, direct) : null;
		}
		catch (SQLException | RuntimeException ex) {
			return null;
		}
	}

	private static DataSource direct(HikariDataSource pool) {
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
	 * Returns a connection straight to the database when the pool has none, else {@code null}: take one
	 * from the pool then.
	 */
	Connection connectionIfPoolIsEmpty() throws SQLException {
		HikariPoolMXBean state = this.pool.getHikariPoolMXBean();
		boolean empty = state != null && !this.pool.isClosed() && state.getTotalConnections() == 0;
		if (empty != this.bypassing) {
			this.bypassing = empty;
			logger.info(empty ? "The connection pool of the crid registry holds no connection: crid connects to the "
					+ "database directly until the pool has one again"
					: "The connection pool of the crid registry has connections again: crid uses it");
		}
		return empty ? this.direct.getConnection() : null;
	}

}
