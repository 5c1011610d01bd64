package dev.crid.r2dbc;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.r2dbc.spi.ConnectionFactory;
import org.jspecify.annotations.Nullable;

import dev.crid.CridLayout;
import dev.crid.InvalidConfigException;
import dev.crid.InvalidConfigException.Violation;
import dev.crid.LayoutMismatchException;
import dev.crid.Registry;
import dev.crid.RegistryException;
import dev.crid.sql.RegistrySettings;
import dev.crid.sql.RegistryStore;
import dev.crid.sql.RegistryTables;
import dev.crid.sql.SqlDialect;
import dev.crid.sql.SqlReservation;
import dev.crid.sql.TableLayout;

/**
 * A durable {@link Registry} in a database reached through R2DBC, for reactive
 * applications that have a {@link ConnectionFactory} and no JDBC {@code DataSource}. It
 * keeps the JDBC registry's tables, statements and guards, which both take from
 * {@code crid-sql}: the table
 * {@code crid_allocations (ts BIGINT PRIMARY KEY, next_seq BIGINT NOT NULL)}, shareable
 * with Go crid nodes and with JDBC ones; beside it {@code crid_allocations_meta} with the
 * layout the table was first used with and the eviction watermark (added beside a table
 * the Go crid made, where allowed); one atomic statement per reservation, a synchronous
 * commit on PostgreSQL, the database's clock for the node's skew check, and no
 * reservation in a second once it is evicted. PostgreSQL (r2dbc-postgresql), MariaDB 10.5
 * and later (r2dbc-mariadb) and H2 (r2dbc-h2), told by the connection factory's metadata.
 *
 * <pre class="code">
 * R2dbcRegistry registry = R2dbcRegistry.builder(connectionFactory).build();
 * registry.ensureSchema();
 * CridNode node = CridNode.builder(registry).build();</pre>
 *
 * <h2>Threads</h2> The {@link Registry} SPI is blocking, and a node calls it on its own
 * background thread, never on a caller's. This registry therefore waits for the database
 * on the calling thread, bounded by the query timeout for each operation from asking for
 * a connection to the commit; called on a non-blocking thread (an event loop:
 * {@code Schedulers.isInNonBlockingThread()}), it refuses at once rather than stall it.
 *
 * <h2>Transactions</h2> Each operation takes a connection of its own from the connection
 * factory, so it never joins a reactive transaction of the application, and commits
 * before it returns: a rolled-back business transaction must not un-reserve a block a
 * node keeps serving.
 *
 * <h2>Failures</h2> Any failure is a {@link RegistryException} with the driver's
 * exception attached and its root cause named. One that asking again cannot mend is not
 * {@linkplain RegistryException#isRetryable() retryable}, so a node throws it at once: a
 * missing table, a syntax error, a refused privilege or login, an evicted second, a call
 * on a non-blocking thread. Refused or lost connections and timeouts are retryable;
 * conflicts the database rolled back (a duplicate key on a new row, a deadlock, a
 * serialisation failure) are tried again within the query timeout before they fail.
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
	public static final String DEFAULT_TABLE_NAME = RegistryTables.DEFAULT_NAME;

	/** How long one registry operation may take unless set otherwise: 5 seconds. */
	public static final Duration DEFAULT_QUERY_TIMEOUT = Duration
		.ofSeconds(RegistrySettings.DEFAULT_QUERY_TIMEOUT_SECONDS);

	/** How long rows are kept unless set otherwise: a day. */
	public static final Duration DEFAULT_RETENTION = Duration.ofDays(RegistrySettings.DEFAULT_RETENTION_DAYS);

	private final String tableName;

	private final @Nullable Duration retention;

	private final SqlDialect dialect;

	private final RegistryStore<RuntimeException> store;

	private R2dbcRegistry(Builder builder) {
		this.dialect = builder.validate();
		this.tableName = builder.tableName;
		this.retention = (builder.retention != null && builder.retention.isZero()) ? null : builder.retention;
		RegistryTables tables = new RegistryTables(builder.tableName);
		this.store = new RegistryStore<>(
				new R2dbcSessions(builder.connectionFactory, this.dialect, tables, builder.queryTimeout), tables,
				this.retention, builder.createMetadataTable, System.getLogger(R2dbcRegistry.class.getName()),
				R2dbcRegistry.class.getSimpleName());
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
		SqlReservation reservation = this.store.reserve(timestamp, blockSize);
		return new Reservation(reservation.start(), reservation.databaseTime());
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
		TableLayout wanted = new TableLayout(layout.epoch().getEpochSecond(), layout.timestampBits(),
				layout.sequenceBits());
		TableLayout recorded = this.store.claimLayout(wanted);
		if (recorded != null && !recorded.equals(wanted)) {
			throw new LayoutMismatchException("table '" + this.tableName + "'", CridLayout
				.of(Instant.ofEpochSecond(recorded.epochSeconds()), recorded.timestampBits(), recorded.sequenceBits()),
					layout);
		}
	}

	/**
	 * Evicts every second before {@code timestamp}: raises the watermark below which
	 * reservations are refused, then deletes those rows (Go crid's {@code EvictBefore}).
	 * @param timestamp seconds since the layout's epoch: every second before it is
	 * evicted
	 * @return the number of rows deleted
	 * @throws IllegalArgumentException when the timestamp is negative
	 * @throws RegistryException when the database cannot be reached, or (not retryable)
	 * when the registry runs without its metadata table, which holds the watermark
	 */
	public long evictBefore(long timestamp) {
		return this.store.evictBefore(timestamp);
	}

	/**
	 * Creates the allocation and metadata tables with the statements of the
	 * {@link #schemaScript() schema script} unless they exist; beside a table the Go crid
	 * made, adds the metadata table and keeps the rows. Safe to call from several
	 * processes at once.
	 * @throws RegistryException when a table cannot be created, or the database cannot be
	 * reached
	 */
	public void ensureSchema() {
		this.store.ensureSchema();
	}

	/**
	 * Checks that the allocation table exists and can be read, and tells whether the
	 * metadata table beside it does (the first reservation adds a missing one where
	 * allowed).
	 * @return {@code true} when both tables exist; {@code false} when the metadata table
	 * is missing
	 * @throws RegistryException when the allocation table does not exist (not retryable),
	 * or the database cannot be reached
	 */
	public boolean verifySchema() {
		return this.store.verifySchema();
	}

	/**
	 * Returns the statements of the {@link #schemaScript() schema script} under this
	 * registry's table names, for Flyway, Liquibase or a start-up message.
	 * @return the {@code CREATE TABLE} statements, without terminating semicolons
	 */
	public List<String> schema() {
		return this.dialect.schemaStatements(new RegistryTables(this.tableName));
	}

	/**
	 * Returns the classpath location of the database's schema script, the same as the
	 * JDBC registry's, such as {@code dev/crid/jdbc/schema-postgresql.sql}; it creates
	 * both tables under their default names.
	 * @return the script's location
	 */
	public String schemaScript() {
		return this.dialect.schemaScript();
	}

	/**
	 * Returns the allocation table, whose rows record the reservations.
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

	/**
	 * Returns {@code r2dbc}.
	 * @return the kind
	 */
	@Override
	public String kind() {
		return "r2dbc";
	}

	/**
	 * Returns the table and the dialect whose statements run: the one the connection
	 * factory's metadata told when the registry was built, except on a MariaDB Galera
	 * cluster member, where it is {@code mysql} once an operation has asked the server;
	 * never touches the database.
	 * @return the details: {@code table} and {@code dialect}
	 */
	@Override
	public Map<String, Object> details() {
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("table", this.tableName);
		SqlDialect statements = this.store.knownStatements();
		details.put("dialect", ((statements != null) ? statements : this.dialect).id());
		return details;
	}

	/**
	 * Checks, without reserving a block, that the database answers and the allocation
	 * table can be read, as {@link #verifySchema()} does.
	 * @return {@code true}
	 * @throws RegistryException when the database cannot be reached (retryable), or the
	 * allocation table does not exist (not retryable)
	 */
	@Override
	public boolean check() {
		verifySchema();
		return true;
	}

	@Override
	public String toString() {
		return "R2dbcRegistry[table=" + this.tableName + ", dialect=" + this.dialect + "]";
	}

	/**
	 * Builds an {@link R2dbcRegistry}. Every setting has a default; {@link #build()}
	 * checks them all and reports every violated rule at once.
	 */
	public static final class Builder {

		private final ConnectionFactory connectionFactory;

		private String tableName = DEFAULT_TABLE_NAME;

		private Duration queryTimeout = DEFAULT_QUERY_TIMEOUT;

		private @Nullable Duration retention = DEFAULT_RETENTION;

		private boolean createMetadataTable = true;

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
		 * connection to the commit; positive, at most a day, default 5 seconds. A
		 * statement still running then is cancelled.
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
		public Builder retention(@Nullable Duration retention) {
			this.retention = retention;
			return this;
		}

		/**
		 * Sets whether the first reservation may add the metadata table where the
		 * allocation table has none beside it (a table the Go crid made); default
		 * {@code true}. With {@code false}, or where the database refuses, the registry
		 * runs without it after one warning, as the JDBC registry does: no layout record,
		 * no evictions. {@link R2dbcRegistry#ensureSchema()} creates it either way.
		 * @param createMetadataTable whether to add a missing metadata table on first use
		 * @return this builder
		 */
		public Builder createMetadataTable(boolean createMetadataTable) {
			this.createMetadataTable = createMetadataTable;
			return this;
		}

		/**
		 * Builds the registry. It does not touch the database: the connection factory's
		 * metadata names it.
		 * @return the registry
		 * @throws InvalidConfigException listing every setting that is out of range,
		 * including a connection factory for a database the registry has no statements
		 * for
		 */
		public R2dbcRegistry build() {
			return new R2dbcRegistry(this);
		}

		private SqlDialect validate() {
			List<Violation> violations = new ArrayList<>();
			SqlDialect dialect = null;
			if (this.connectionFactory == null) {
				violations.add(new Violation("connectionFactory", null, "must be an R2DBC ConnectionFactory"));
			}
			else {
				String database = this.connectionFactory.getMetadata().getName();
				dialect = R2dbcDatabases.dialect(database);
				if (dialect == null) {
					violations.add(new Violation("connectionFactory", database,
							"must be for a database the R2DBC registry supports: " + R2dbcDatabases.SUPPORTED));
				}
			}
			addViolation(violations, "tableName", this.tableName, RegistryTables.nameRule(this.tableName));
			addViolation(violations, "queryTimeout", this.queryTimeout,
					RegistrySettings.queryTimeoutRule(this.queryTimeout));
			addViolation(violations, "retention", this.retention, RegistrySettings.retentionRule(this.retention));
			if (dialect == null || !violations.isEmpty()) {
				throw new InvalidConfigException(violations);
			}
			return dialect;
		}

		private static void addViolation(List<Violation> violations, String setting, @Nullable Object value,
				@Nullable String rule) {
			if (rule != null) {
				violations.add(new Violation(setting, value, rule));
			}
		}

	}

}
