package dev.crid.data.r2dbc;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import io.r2dbc.spi.ConnectionFactory;

import dev.crid.CridException;
import dev.crid.CridLayout;
import dev.crid.InvalidConfigException;
import dev.crid.InvalidConfigException.Violation;
import dev.crid.LayoutMismatchException;
import dev.crid.Registry;
import dev.crid.RegistryException;

import org.jspecify.annotations.Nullable;

/**
 * A durable {@link Registry} in a database reached through R2DBC, for reactive
 * applications that have a {@link ConnectionFactory} and no JDBC {@code DataSource}. It
 * keeps the JDBC registry's table
 * ({@code crid_allocations (ts BIGINT PRIMARY KEY, next_seq BIGINT NOT NULL)}, shareable
 * with Go crid nodes and with JDBC ones), its metadata table beside it
 * ({@code crid_allocations_meta}: the layout the table was first used with, and the
 * eviction watermark), its statements and its guards: one atomic statement per
 * reservation, a synchronous commit on PostgreSQL, the database's clock for the node's
 * skew check, and no reservation in a second once it is evicted. PostgreSQL
 * (r2dbc-postgresql), MariaDB 10.5 and later (r2dbc-mariadb) and H2 (r2dbc-h2); the
 * database is told by the connection factory's metadata.
 *
 * <pre class="code">
 * R2dbcRegistry registry = R2dbcRegistry.builder(connectionFactory).build();
 * registry.ensureSchema();
 * CridNode node = CridNode.builder(registry).build();</pre>
 *
 * <h2>Threads</h2> The {@link Registry} SPI is blocking, and a node calls it on its own
 * background thread, never on a caller's. This registry therefore waits for the database,
 * bounded by the query timeout for each operation from asking for a connection to the
 * commit, on the calling thread; called on a non-blocking thread (an event loop:
 * {@code Schedulers.isInNonBlockingThread()}), it refuses at once rather than stall it.
 *
 * <h2>Transactions</h2> Each operation takes a connection of its own from the connection
 * factory, so it never joins a reactive transaction of the application, and commits
 * before it returns: a rolled-back business transaction must not un-reserve a block a
 * node keeps serving.
 *
 * <h2>Failures</h2> Any failure is a {@link RegistryException} with the driver's
 * exception attached and its root cause named; a missing table, an evicted second and a
 * call on a non-blocking thread are not {@linkplain RegistryException#isRetryable()
 * retryable}.
 *
 * <h2>Eviction</h2> As in the JDBC registry: after a reservation, at most every 24th of
 * the {@link Builder#retention retention}, the seconds older than the retention are
 * evicted, counted back from the second just reserved or from the database's second when
 * it is earlier; the watermark is raised first, and every reservation reads it under a
 * lock the raise waits for.
 *
 * <p>
 * Thread-safe.
 */
public final class R2dbcRegistry implements Registry {

	/** The table used unless set otherwise: {@value}, the Go crid's. */
	public static final String DEFAULT_TABLE_NAME = "crid_allocations";

	/** How long one registry operation may take unless set otherwise: 5 seconds. */
	public static final Duration DEFAULT_QUERY_TIMEOUT = Duration.ofSeconds(5);

	/** How long rows are kept unless set otherwise: a day. */
	public static final Duration DEFAULT_RETENTION = Duration.ofDays(1);

	/** What the metadata table's name adds to the allocation table's. */
	static final String META_SUFFIX = "_meta";

	private static final Pattern TABLE_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)?");

	private static final Duration MAX_QUERY_TIMEOUT = Duration.ofDays(1);

	private final String tableName;

	private final @Nullable Duration retention;

	private final R2dbcStorage storage;

	private final @Nullable R2dbcEviction eviction;

	private R2dbcRegistry(Builder builder) {
		R2dbcDialect dialect = builder.validate();
		this.tableName = builder.tableName;
		this.retention = (builder.retention != null && builder.retention.isZero()) ? null : builder.retention;
		this.storage = new R2dbcStorage(builder.connectionFactory, java.util.Objects.requireNonNull(dialect),
				builder.tableName, builder.queryTimeout);
		this.eviction = (this.retention != null) ? new R2dbcEviction(this.storage, this.tableName, this.retention)
				: null;
	}

	/**
	 * Starts a builder for a registry on the given connection factory.
	 * @param connectionFactory the factory of connections to the database that holds the
	 * table
	 * @return a builder with the default table name, query timeout and retention
	 */
	public static Builder builder(ConnectionFactory connectionFactory) {
		return new Builder(connectionFactory);
	}

	/**
	 * Reserves {@code blockSize} sequence numbers of second {@code timestamp} and returns
	 * the first; the reservation is committed before this method returns.
	 * @param timestamp seconds since the layout's epoch, not negative
	 * @param blockSize how many sequence numbers to reserve, at least 1
	 * @return the first reserved sequence number
	 * @throws IllegalArgumentException when an argument is out of range
	 * @throws RegistryException on any failure, or when the second was evicted (not
	 * retryable)
	 */
	@Override
	public long allocate(long timestamp, long blockSize) {
		return reserve(timestamp, blockSize).start();
	}

	/**
	 * Reserves a block as {@link #allocate} does, and returns the database's clock at the
	 * reservation on PostgreSQL and MariaDB (H2 runs on the application's own). When an
	 * eviction is due, runs it afterwards.
	 * @param timestamp seconds since the layout's epoch, not negative
	 * @param blockSize how many sequence numbers to reserve, at least 1
	 * @return the first reserved sequence number, and the database's clock if known
	 * @throws IllegalArgumentException when an argument is out of range
	 * @throws RegistryException on any failure, or when the second was evicted (not
	 * retryable)
	 */
	@Override
	public Reservation reserve(long timestamp, long blockSize) {
		if (timestamp < 0) {
			throw new IllegalArgumentException("timestamp is " + timestamp + " but must not be negative");
		}
		if (blockSize < 1) {
			throw new IllegalArgumentException("blockSize is " + blockSize + " but must be at least 1");
		}
		Reservation reservation = this.storage.reserve(timestamp, blockSize);
		if (this.eviction != null) {
			this.eviction.afterReservation(evictionReference(timestamp, reservation.registryTime()));
		}
		return reservation;
	}

	/**
	 * The second an eviction counts the retention back from: the one just reserved, or
	 * the database's own when it is earlier, so that a node whose clock runs ahead never
	 * evicts seconds others still use.
	 */
	private long evictionReference(long timestamp, @Nullable Instant registryTime) {
		CridLayout layout = this.storage.checkedLayout();
		if (registryTime == null || layout == null) {
			return timestamp;
		}
		try {
			return Math.min(timestamp, layout.timestampAt(registryTime));
		}
		catch (CridException ex) {
			// The database's clock is outside the layout's range: evict nothing by it.
			return 0;
		}
	}

	/**
	 * Records the layout in the metadata table if none is recorded yet, and refuses any
	 * other. Checked once per layout.
	 * @param layout the layout of the node about to use the registry
	 * @throws LayoutMismatchException when the table was first used with another layout
	 * @throws RegistryException when the database cannot be reached or a table is missing
	 */
	@Override
	public void checkLayout(CridLayout layout) {
		this.storage.checkLayout(layout);
	}

	/**
	 * Evicts every second before {@code timestamp}: raises the watermark below which
	 * reservations are refused, then deletes those rows (Go crid's {@code EvictBefore}).
	 * @param timestamp seconds since the layout's epoch: every second before it is
	 * evicted
	 * @return the number of rows deleted
	 * @throws IllegalArgumentException when the timestamp is negative
	 * @throws RegistryException when the database cannot be reached
	 */
	public long evictBefore(long timestamp) {
		if (timestamp < 0) {
			throw new IllegalArgumentException("timestamp is " + timestamp + " but must not be negative");
		}
		return this.storage.evict(timestamp, Long.MAX_VALUE);
	}

	/**
	 * Creates the allocation and metadata tables with the statements of {@link #schema()}
	 * unless they exist.
	 * @throws RegistryException when a table cannot be created, or the database cannot be
	 * reached
	 */
	public void ensureSchema() {
		this.storage.ensureSchema();
	}

	/**
	 * Checks that the allocation and metadata tables exist and can be read.
	 * @throws RegistryException when a table does not exist (not retryable), or the
	 * database cannot be reached
	 */
	public void verifySchema() {
		this.storage.verifySchema();
	}

	/**
	 * Returns the statements that create both tables under this registry's names in its
	 * database, for Flyway, Liquibase or a schema script.
	 * @return the {@code CREATE TABLE IF NOT EXISTS} statements, without terminating
	 * semicolons
	 */
	public List<String> schema() {
		return this.storage.dialect().schema(this.tableName, this.tableName + META_SUFFIX);
	}

	/**
	 * Returns the table that holds the allocations.
	 * @return the table name, perhaps schema-qualified
	 */
	public String tableName() {
		return this.tableName;
	}

	/**
	 * Returns how long rows are kept before they are evicted.
	 * @return the retention, or {@code null} when rows are never evicted
	 */
	public @Nullable Duration retention() {
		return this.retention;
	}

	@Override
	public String toString() {
		return "R2dbcRegistry[table=" + this.tableName + ", database=" + this.storage.dialect() + "]";
	}

	/**
	 * Builds an {@link R2dbcRegistry}. Every setting has a default; {@link #build()}
	 * checks them all and reports every violated rule at once.
	 */
	public static final class Builder {

		private final ConnectionFactory connectionFactory;

		private String tableName = DEFAULT_TABLE_NAME;

		private Duration queryTimeout = DEFAULT_QUERY_TIMEOUT;

		private Duration retention = DEFAULT_RETENTION;

		private Builder(ConnectionFactory connectionFactory) {
			this.connectionFactory = connectionFactory;
		}

		/**
		 * Sets the table, {@code name} or {@code schema.name}, each part matching
		 * {@code [A-Za-z_][A-Za-z0-9_]*}; default
		 * {@value R2dbcRegistry#DEFAULT_TABLE_NAME}. The metadata table is named after
		 * it, with {@code _meta} appended.
		 * @param tableName the table name
		 * @return this builder
		 */
		public Builder tableName(String tableName) {
			this.tableName = tableName;
			return this;
		}

		/**
		 * Sets how long one registry operation may take in all, from asking for a
		 * connection to the commit; positive, at most a day, default 5 seconds.
		 * @param queryTimeout the timeout
		 * @return this builder
		 */
		public Builder queryTimeout(Duration queryTimeout) {
			this.queryTimeout = queryTimeout;
			return this;
		}

		/**
		 * Sets how long rows are kept, as for the JDBC registry: default a day;
		 * {@code null} or zero keeps every row; otherwise at least a second. Keep it well
		 * above any skew the nodes' clocks may have.
		 * @param retention the retention
		 * @return this builder
		 */
		public Builder retention(Duration retention) {
			this.retention = retention;
			return this;
		}

		/**
		 * Builds the registry. It does not touch the database.
		 * @return the registry
		 * @throws InvalidConfigException listing every setting that is out of range,
		 * including a connection factory for a database the registry has no statements
		 * for
		 */
		public R2dbcRegistry build() {
			return new R2dbcRegistry(this);
		}

		private @Nullable R2dbcDialect validate() {
			List<Violation> violations = new ArrayList<>();
			R2dbcDialect dialect = null;
			if (this.connectionFactory == null) {
				violations.add(new Violation("connectionFactory", null, "must be an R2DBC ConnectionFactory"));
			}
			else {
				String database = this.connectionFactory.getMetadata().getName();
				dialect = R2dbcDialect.of(database);
				if (dialect == null) {
					violations.add(new Violation("connectionFactory", database,
							"must be for a database the R2DBC " + "registry supports: " + R2dbcDialect.SUPPORTED));
				}
			}
			if (this.tableName == null || !TABLE_NAME.matcher(this.tableName).matches()) {
				violations.add(new Violation("tableName", this.tableName,
						"must be a table name or schema.name, each part matching [A-Za-z_][A-Za-z0-9_]*"));
			}
			if (this.queryTimeout == null || this.queryTimeout.isNegative() || this.queryTimeout.isZero()
					|| this.queryTimeout.compareTo(MAX_QUERY_TIMEOUT) > 0) {
				violations.add(new Violation("queryTimeout", this.queryTimeout,
						"must be in (PT0S, " + MAX_QUERY_TIMEOUT + "]"));
			}
			if (this.retention != null && !this.retention.isZero()
					&& (this.retention.isNegative() || this.retention.compareTo(Duration.ofSeconds(1)) < 0)) {
				violations.add(new Violation("retention", this.retention,
						"must be at least PT1S (or zero to keep every row)"));
			}
			if (!violations.isEmpty()) {
				throw new InvalidConfigException(violations);
			}
			return dialect;
		}

	}

}
