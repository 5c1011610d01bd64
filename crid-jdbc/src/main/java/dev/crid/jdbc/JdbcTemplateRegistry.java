package dev.crid.jdbc;

import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;

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
 * A durable {@link Registry} in a database table, shared by every node of a service and
 * by Go crid nodes:
 * {@code crid_allocations (ts BIGINT PRIMARY KEY, next_seq BIGINT NOT NULL)}, where
 * {@code next_seq} is the next unreserved sequence number of second {@code ts} (seconds
 * since the layout's epoch). Each {@link #allocate} is one atomic statement in the
 * {@link JdbcDialect dialect} of the database (detected from the connection unless set),
 * so any number of processes may reserve from one table at once. The statements and the
 * schema scripts are those of {@code crid-sql}, which the R2DBC registry shares.
 *
 * <p>
 * Beside it, in {@code crid_allocations_meta} (the table's name with {@code _meta}
 * appended), where Go nodes never look, one row keeps what crid for Java adds: the layout
 * the table was first used with (a node with another is refused, see
 * {@link #checkLayout}) and the eviction watermark (see {@link #evictBefore}). The schema
 * scripts create both tables; the registry adds the row itself.
 *
 * <h2>A table the Go crid made</h2> The Go crid creates only {@code crid_allocations}. On
 * such a table (with or without rows: Java nodes continue each second where the Go nodes
 * left off) {@link #ensureSchema()} adds the metadata table beside it, and
 * {@link #verifySchema()} returns {@code false} rather than failing. Without either, the
 * first reservation (or layout check) adds it, unless the builder says not to
 * ({@link Builder#createMetadataTable(boolean)}) or the database refuses (a user without
 * the right to create tables). Then the registry runs without it, after one warning that
 * says so: no layout is recorded or checked, so a node with another layout is not
 * refused, and nothing is evicted, as evictions need the watermark; the registry keeps to
 * that until it is built again.
 *
 * <pre class="code">
 * JdbcTemplateRegistry registry = JdbcTemplateRegistry.builder(jdbcTemplate)
 *     .tableName("ids.crid_allocations")
 *     .queryTimeout(Duration.ofSeconds(2))
 *     .build();
 * registry.ensureSchema();
 * CridNode node = CridNode.builder(registry).build();</pre>
 *
 * <h2>Transactions</h2> Every reservation commits on its own, before {@code allocate}
 * returns, and never takes part in a transaction of the caller: a rolled-back business
 * transaction must not un-reserve a block that a node keeps serving, or its IDs would be
 * handed out again. It runs on the calling thread (a node calls it on its own background
 * thread) on a connection taken directly from the {@code JdbcTemplate}'s
 * {@link DataSource}, or from the data source behind it when that is Spring's
 * {@link org.springframework.jdbc.datasource.TransactionAwareDataSourceProxy}; a pool
 * hands out such a connection whatever transaction the thread is in. The
 * {@code JdbcTemplate} itself is used only for its data source. With JTA, give the
 * registry a data source whose connections are not enlisted in global transactions (a
 * plain, non-XA pool on the same database), or its reservations would roll back with
 * them. A data source that always hands out one and the same connection, or that routes
 * by a thread-local key, does not suit the registry.
 *
 * <h2>Failures</h2> Any failure is a {@link RegistryException} with the cause attached (a
 * Spring {@link DataAccessException} where the database reported one) and its root cause
 * named in the message (the driver's "connection refused", a timeout, a refused login).
 * Waiting for a pooled connection is bounded by the pool's connection timeout; each
 * statement by the query timeout, and the connection's network timeout is set a second
 * longer, so a server that stops answering cannot hold the caller. A missing table is a
 * {@link MissingTableException} naming the table and the schema script that creates it.
 *
 * <p>
 * A failure that asking again cannot mend is not {@link RegistryException#isRetryable()
 * retryable}, so a node throws it to its caller at once instead of retrying until its
 * allocation timeout: a missing table, a syntax error, a refused login or privilege, a
 * statement the driver refuses. The registry tells them by the exception's type and
 * SQLState (through Spring's translation: a
 * {@link org.springframework.jdbc.BadSqlGrammarException},
 * {@link org.springframework.dao.PermissionDeniedDataAccessException} or
 * {@link org.springframework.dao.InvalidDataAccessApiUsageException} is the cause), never
 * by its message. Lost or refused connections, timeouts, deadlocks and serialisation
 * failures stay retryable.
 *
 * <h2>Eviction</h2> The table gains a row for every second in which a block was reserved.
 * Rows older than the {@link Builder#retention(Duration) retention} (a day by default)
 * are evicted: after a reservation, at most every 24th of the retention, the registry
 * evicts the seconds older than the retention counted back from the second it just
 * reserved, or from the database's own second when the database tells its clock and it is
 * earlier (so a node whose clock runs ahead cannot evict seconds the others still use).
 * Eviction first raises a watermark, then deletes; every reservation reads the watermark
 * under a lock the raise waits for, so once a second is evicted no node, in any process,
 * can reserve in it again, even one whose clock lags behind: it is refused with a
 * {@link RegistryException} that is not retryable. Go nodes do not read the watermark:
 * keep their clocks within the retention, and do not evict from Go on a table Java nodes
 * share.
 *
 * <h2>Durability</h2> A committed reservation that a database crash loses would be handed
 * out again. On PostgreSQL each reservation insists on a synchronous commit whatever the
 * server's setting; on MariaDB and MySQL the server must flush its log at every commit
 * ({@code innodb_flush_log_at_trx_commit=1}, the default), and the registry logs a
 * warning when it finds otherwise.
 *
 * <p>
 * Thread-safe.
 */
public final class JdbcTemplateRegistry implements Registry {

	/** The table used unless set otherwise: {@value}, the Go crid's. */
	public static final String DEFAULT_TABLE_NAME = RegistryTables.DEFAULT_NAME;

	/**
	 * {@link #DEFAULT_QUERY_TIMEOUT} in seconds ({@value}): a compile-time constant,
	 * which code that must not load this class (such as properties bound where crid-jdbc
	 * may be missing) can refer to.
	 */
	public static final long DEFAULT_QUERY_TIMEOUT_SECONDS = RegistrySettings.DEFAULT_QUERY_TIMEOUT_SECONDS;

	/** How long one registry operation may take unless set otherwise: 5 seconds. */
	public static final Duration DEFAULT_QUERY_TIMEOUT = Duration.ofSeconds(DEFAULT_QUERY_TIMEOUT_SECONDS);

	/**
	 * {@link #DEFAULT_RETENTION} in days ({@value}): a compile-time constant, which code
	 * that must not load this class can refer to.
	 */
	public static final long DEFAULT_RETENTION_DAYS = RegistrySettings.DEFAULT_RETENTION_DAYS;

	/** How long rows are kept unless set otherwise: a day. */
	public static final Duration DEFAULT_RETENTION = Duration.ofDays(DEFAULT_RETENTION_DAYS);

	private final String tableName;

	private final @Nullable Duration retention;

	private final JdbcSessions sessions;

	private final RegistryStore<SQLException> store;

	/**
	 * Creates a registry with the default table name and query timeout, detecting the
	 * dialect.
	 * @param jdbcTemplate whose data source holds the table
	 * @throws InvalidConfigException when the template has no data source
	 */
	public JdbcTemplateRegistry(JdbcTemplate jdbcTemplate) {
		this(new Builder(jdbcTemplate));
	}

	private JdbcTemplateRegistry(Builder builder) {
		DataSource dataSource = builder.validate();
		this.tableName = builder.tableName;
		this.retention = (builder.retention != null && builder.retention.isZero()) ? null : builder.retention;
		RegistryTables tables = new RegistryTables(builder.tableName);
		this.sessions = new JdbcSessions(dataSource, tables, builder.queryTimeout, builder.dialect);
		this.store = new RegistryStore<>(this.sessions, tables, this.retention, builder.createMetadataTable,
				System.getLogger(JdbcTemplateRegistry.class.getName()), JdbcTemplateRegistry.class.getSimpleName());
	}

	/**
	 * Starts a builder for a registry on the given template's data source.
	 * @param jdbcTemplate whose data source holds the table
	 * @return a builder with the default table name and query timeout, detecting the
	 * dialect
	 */
	public static Builder builder(JdbcTemplate jdbcTemplate) {
		return new Builder(jdbcTemplate);
	}

	/**
	 * Reserves {@code blockSize} sequence numbers of second {@code timestamp} and returns
	 * the first; the reservation is committed before this method returns, whatever
	 * transaction the caller is in.
	 * @param timestamp seconds since the layout's epoch, not negative
	 * @param blockSize how many sequence numbers to reserve, at least 1
	 * @return the first reserved sequence number
	 * @throws IllegalArgumentException when an argument is out of range
	 * @throws MissingTableException when a registry table does not exist
	 * @throws RegistryException on any other failure, or when the second was evicted (not
	 * retryable)
	 */
	@Override
	public long allocate(long timestamp, long blockSize) {
		return reserve(timestamp, blockSize).start();
	}

	/**
	 * Reserves a block as {@link #allocate} does, and returns the database's clock at the
	 * reservation where the dialect reads it in the same round trip (PostgreSQL, MariaDB,
	 * MySQL), else none. When an eviction is due, runs it afterwards (see the class
	 * documentation).
	 * @param timestamp seconds since the layout's epoch, not negative
	 * @param blockSize how many sequence numbers to reserve, at least 1
	 * @return the first reserved sequence number, and the database's clock if known
	 * @throws IllegalArgumentException when an argument is out of range
	 * @throws MissingTableException when a registry table does not exist
	 * @throws RegistryException on any other failure, or when the second was evicted (not
	 * retryable)
	 */
	@Override
	public Reservation reserve(long timestamp, long blockSize) {
		SqlReservation reservation = this.store.reserve(timestamp, blockSize);
		return new Reservation(reservation.start(), reservation.databaseTime());
	}

	/**
	 * Records the layout in the metadata table if none is recorded yet, and refuses any
	 * other. Checked once per layout; later calls with the same layout do not touch the
	 * database.
	 * @param layout the layout of the node about to use the registry
	 * @throws LayoutMismatchException when the table was first used with another layout
	 * @throws MissingTableException when a registry table does not exist
	 * @throws RegistryException when the database cannot be reached
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
	 * Safe to run from several processes at once, and beside running reservations; a node
	 * whose clock lags behind the watermark is refused rather than given numbers of an
	 * evicted second again. The registry also evicts by itself, by its retention; call
	 * this to evict by another rule.
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
	 * Creates the allocation and metadata tables, with the DDL of the dialect's
	 * {@link #schemaScript() schema script}, unless they exist: beside a table the Go
	 * crid made, it adds the metadata table and keeps the rows. Safe to call from several
	 * processes at once.
	 * @throws RegistryException when the table is missing and cannot be created, or the
	 * database cannot be reached
	 */
	public void ensureSchema() {
		this.store.ensureSchema();
	}

	/**
	 * Checks that the allocation table exists and can be read, and tells whether the
	 * metadata table beside it does. A missing metadata table (as beside a table the Go
	 * crid made) is no failure: the first reservation adds it where allowed, or else the
	 * registry runs without it (see the class documentation).
	 * @return {@code true} when both tables exist; {@code false} when the metadata table
	 * is missing
	 * @throws MissingTableException when the allocation table does not exist
	 * @throws RegistryException when the database cannot be reached or a table cannot be
	 * read
	 */
	public boolean verifySchema() {
		return this.store.verifySchema();
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
	 * Returns the dialect: the one set on the builder, else the one detected from the
	 * database on first use (and logged once at INFO).
	 * @return the dialect
	 * @throws RegistryException when the dialect must be detected and the database cannot
	 * be reached
	 */
	public JdbcDialect dialect() {
		return this.sessions.dialect();
	}

	/**
	 * Returns the classpath location of the schema script for the dialect, such as
	 * {@code dev/crid/jdbc/schema-postgresql.sql}, for Flyway or Liquibase; it creates
	 * both tables under their default names.
	 * @return the script's location
	 * @throws RegistryException when the dialect must be detected and the database cannot
	 * be reached
	 */
	public String schemaScript() {
		return this.sessions.dialect().statements().schemaScript();
	}

	/**
	 * Returns {@code jdbc}.
	 * @return the kind
	 */
	@Override
	public String kind() {
		return "jdbc";
	}

	/**
	 * Returns the table and, once an operation told it, the dialect whose statements run
	 * (through MySQL Connector/J on MariaDB, or on a MariaDB Galera cluster member,
	 * {@code mysql}); never touches the database.
	 * @return the details: {@code table}, and {@code dialect} once known
	 */
	@Override
	public Map<String, Object> details() {
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("table", this.tableName);
		SqlDialect statements = this.store.knownStatements();
		if (statements != null) {
			details.put("dialect", statements.id());
		}
		return details;
	}

	/**
	 * Checks that the database answers and the allocation table can be read, as
	 * {@link #verifySchema()} does, without reserving a block.
	 * @return {@code true}
	 * @throws MissingTableException (not retryable) when the allocation table does not
	 * exist
	 * @throws RegistryException when the database cannot be reached or does not answer
	 * (retryable), or refuses the check (not retryable: a refused login, say)
	 */
	@Override
	public boolean check() {
		verifySchema();
		return true;
	}

	@Override
	public String toString() {
		JdbcDialect dialect = this.sessions.knownDialect();
		return "JdbcTemplateRegistry[table=" + this.tableName + ", dialect="
				+ ((dialect != null) ? dialect : "not yet detected") + "]";
	}

	/**
	 * Builds a {@link JdbcTemplateRegistry}. Every setting has a default;
	 * {@link #build()} checks them all and reports every violated rule at once.
	 */
	public static final class Builder {

		private final JdbcTemplate jdbcTemplate;

		private String tableName = DEFAULT_TABLE_NAME;

		private @Nullable JdbcDialect dialect;

		private Duration queryTimeout = DEFAULT_QUERY_TIMEOUT;

		private @Nullable Duration retention = DEFAULT_RETENTION;

		private boolean createMetadataTable = true;

		private Builder(JdbcTemplate jdbcTemplate) {
			this.jdbcTemplate = jdbcTemplate;
		}

		/**
		 * Sets the table, {@code name} or {@code schema.name}, each part matching
		 * {@code [A-Za-z_][A-Za-z0-9_]*}; default
		 * {@value JdbcTemplateRegistry#DEFAULT_TABLE_NAME}.
		 * @param tableName the table name
		 * @return this builder
		 */
		public Builder tableName(String tableName) {
			this.tableName = tableName;
			return this;
		}

		/**
		 * Sets the dialect instead of detecting it from the database; {@code null}
		 * detects it. Either way the statements suit the connection's driver as well: the
		 * MARIADB dialect through MySQL Connector/J, say, reserves as the MYSQL dialect
		 * does, since that driver refuses {@code INSERT ... RETURNING} as a query. The
		 * choice is logged once, at INFO, on first use. {@link JdbcDialect#of(String)}
		 * reads a dialect from configuration.
		 * @param dialect the dialect, or {@code null}
		 * @return this builder
		 */
		public Builder dialect(@Nullable JdbcDialect dialect) {
			this.dialect = dialect;
			return this;
		}

		/**
		 * Sets how long one registry operation may take in all, from getting a connection
		 * to the commit; positive, at most a day, default 5 seconds. Statements get it as
		 * their JDBC query timeout, rounded up to whole seconds.
		 * @param queryTimeout the timeout
		 * @return this builder
		 */
		public Builder queryTimeout(Duration queryTimeout) {
			this.queryTimeout = queryTimeout;
			return this;
		}

		/**
		 * Sets how long rows are kept: after a reservation, at most every 24th of this
		 * (between a second and an hour), the registry evicts the seconds older than
		 * this; default a day. {@code null} or zero keeps every row; otherwise at least a
		 * second. A node whose clock lags behind the others' by more than this is
		 * refused, so keep it well above any skew the nodes' clocks may have.
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
		 * {@code true}. {@code false} suits an application that keeps its schema to
		 * itself (Flyway, Liquibase, a setting that forbids schema changes): the registry
		 * then runs without the metadata table, after one warning, as it does where the
		 * database refuses to create it. {@link JdbcTemplateRegistry#ensureSchema()}
		 * creates it either way.
		 * @param createMetadataTable whether to add a missing metadata table on first use
		 * @return this builder
		 */
		public Builder createMetadataTable(boolean createMetadataTable) {
			this.createMetadataTable = createMetadataTable;
			return this;
		}

		/**
		 * Builds the registry. It does not touch the database: the dialect is detected on
		 * first use.
		 * @return the registry
		 * @throws InvalidConfigException listing every setting that is out of range
		 */
		public JdbcTemplateRegistry build() {
			return new JdbcTemplateRegistry(this);
		}

		private DataSource validate() {
			List<Violation> violations = new ArrayList<>();
			DataSource dataSource = null;
			if (this.jdbcTemplate == null) {
				violations.add(new Violation("jdbcTemplate", null, "must be a JdbcTemplate with a DataSource"));
			}
			else {
				dataSource = this.jdbcTemplate.getDataSource();
				if (dataSource == null) {
					violations.add(new Violation("jdbcTemplate", this.jdbcTemplate, "must have a DataSource"));
				}
			}
			addViolation(violations, "tableName", this.tableName, RegistryTables.nameRule(this.tableName));
			addViolation(violations, "queryTimeout", this.queryTimeout,
					RegistrySettings.queryTimeoutRule(this.queryTimeout));
			addViolation(violations, "retention", this.retention, RegistrySettings.retentionRule(this.retention));
			if (dataSource == null || !violations.isEmpty()) {
				throw new InvalidConfigException(violations);
			}
			return dataSource;
		}

		private static void addViolation(List<Violation> violations, String setting, @Nullable Object value,
				@Nullable String rule) {
			if (rule != null) {
				violations.add(new Violation(setting, value, rule));
			}
		}

	}

}
