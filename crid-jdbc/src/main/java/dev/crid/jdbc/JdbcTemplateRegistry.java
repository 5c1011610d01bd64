package dev.crid.jdbc;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.crid.InvalidConfigException;
import dev.crid.Registry;
import dev.crid.RegistryException;

/**
 * A durable {@link Registry} in a database table, shared by every node of a service and by Go crid nodes:
 * {@code crid_allocations (ts BIGINT PRIMARY KEY, next_seq BIGINT NOT NULL)}, where {@code next_seq} is
 * the next unreserved sequence number of second {@code ts} (seconds since the layout's epoch). Each
 * {@link #allocate} is one atomic statement in the {@link JdbcDialect dialect} of the database (detected
 * from the connection unless set), so any number of processes may allocate from one table at once.
 *
 * <pre>{@code
 * JdbcTemplateRegistry registry = JdbcTemplateRegistry.builder(jdbcTemplate)
 *     .tableName("ids.crid_allocations")
 *     .queryTimeout(Duration.ofSeconds(2))
 *     .build();
 * registry.ensureSchema();
 * CridNode node = CridNode.builder(registry).build();
 * }</pre>
 *
 * <h2>Transactions</h2>
 * Every allocation commits on its own, before {@code allocate} returns, and never takes part in a
 * transaction of the caller: a rolled-back business transaction must not un-reserve a block that a node
 * keeps serving, or its IDs would be handed out again. To that end the allocation runs on a crid-jdbc
 * worker thread (which has no transaction bound to it) on a connection taken directly from the
 * {@code JdbcTemplate}'s {@link DataSource}, in auto-commit mode when the dialect needs one statement,
 * else in a short transaction of its own that it commits. The {@code JdbcTemplate} itself is used only
 * for its data source. The cost: a thread that waits for a synchronous allocation inside a transaction
 * holds its transaction's connection while the allocation takes a second one from the pool, so size the
 * pool with room for that (a node's pre-allocation usually keeps callers from waiting at all). When the
 * pool has no connection to spare, the allocation fails with a {@link RegistryException} after the query
 * timeout rather than deadlocking. A data source that always hands out one and the same connection, or
 * that routes by a thread-local key, does not suit the registry.
 *
 * <h2>Failures</h2>
 * Any failure is a {@link RegistryException} with the cause attached (a Spring
 * {@link DataAccessException} where the database reported one), thrown within the query timeout, which
 * bounds the whole allocation: getting a connection, the statements and the commit. A missing table is a
 * {@link MissingTableException} naming the table and the schema script that creates it.
 *
 * <h2>Durability</h2>
 * A committed allocation that a database crash loses would be handed out again. On PostgreSQL each
 * allocation insists on a synchronous commit whatever the server's setting; on MariaDB and MySQL the
 * server must flush its log at every commit ({@code innodb_flush_log_at_trx_commit=1}, the default), and
 * the registry logs a warning when it finds otherwise.
 *
 * <p>Thread-safe.
 */
public final class JdbcTemplateRegistry implements Registry {

	/** The table used unless set otherwise: {@value}, the Go crid's. */
	public static final String DEFAULT_TABLE_NAME = "crid_allocations";

	/** How long one registry operation may take unless set otherwise: 5 seconds. */
	public static final Duration DEFAULT_QUERY_TIMEOUT = Duration.ofSeconds(5);

	private static final Duration MAX_QUERY_TIMEOUT = Duration.ofDays(1);

	private final String tableName;

	private final RegistryStorage storage;

	/**
	 * Creates a registry with the default table name and query timeout, detecting the dialect.
	 * @param jdbcTemplate whose data source holds the table
	 * @throws InvalidConfigException when the template has no data source
	 */
	public JdbcTemplateRegistry(JdbcTemplate jdbcTemplate) {
		this(new Builder(jdbcTemplate));
	}

	private JdbcTemplateRegistry(Builder builder) {
		DataSource dataSource = builder.validate();
		this.tableName = builder.tableName;
		this.storage = new RegistryStorage(dataSource, builder.tableName, builder.queryTimeout, builder.dialect);
	}

	/**
	 * Starts a builder for a registry on the given template's data source.
	 * @param jdbcTemplate whose data source holds the table
	 * @return a builder with the default table name and query timeout, detecting the dialect
	 */
	public static Builder builder(JdbcTemplate jdbcTemplate) {
		return new Builder(jdbcTemplate);
	}

	/**
	 * Reserves {@code blockSize} sequence numbers of second {@code timestamp} and returns the first; the
	 * reservation is committed before this method returns, whatever transaction the caller is in.
	 * @param timestamp seconds since the layout's epoch, not negative
	 * @param blockSize how many sequence numbers to reserve, at least 1
	 * @return the first reserved sequence number
	 * @throws IllegalArgumentException when an argument is out of range
	 * @throws MissingTableException when the table does not exist
	 * @throws RegistryException on any other failure, or when the query timeout passes
	 */
	@Override
	public long allocate(long timestamp, long blockSize) {
		if (timestamp < 0) {
			throw new IllegalArgumentException("timestamp is " + timestamp + " but must not be negative");
		}
		if (blockSize < 1) {
			throw new IllegalArgumentException("blockSize is " + blockSize + " but must be at least 1");
		}
		return this.storage.allocate(timestamp, blockSize);
	}

	/**
	 * Creates the table, with the DDL of the dialect's {@link #schemaScript() schema script}, unless it
	 * exists. Safe to call from several processes at once.
	 * @throws RegistryException when the table is missing and cannot be created, or the database cannot be
	 * reached
	 */
	public void ensureSchema() {
		this.storage.ensureSchema();
	}

	/**
	 * Checks that the table exists and can be read.
	 * @throws MissingTableException when the table does not exist
	 * @throws RegistryException when the database cannot be reached or the table cannot be read
	 */
	public void verifySchema() {
		this.storage.verifySchema();
	}

	/**
	 * Returns the table that holds the allocations.
	 * @return the table name, perhaps schema-qualified
	 */
	public String tableName() {
		return this.tableName;
	}

	/**
	 * Returns the dialect: the one set on the builder, else the one detected from the database on first
	 * use (and logged once at INFO).
	 * @return the dialect
	 * @throws RegistryException when the dialect must be detected and the database cannot be reached
	 */
	public JdbcDialect dialect() {
		return this.storage.dialect().dialect();
	}

	/**
	 * Returns the classpath location of the schema script for the dialect, such as
	 * {@code dev/crid/jdbc/schema-postgresql.sql}, for Flyway or Liquibase; it creates the table under its
	 * default name.
	 * @return the script's location
	 * @throws RegistryException when the dialect must be detected and the database cannot be reached
	 */
	public String schemaScript() {
		return this.storage.dialect().schemaScript();
	}

	@Override
	public String toString() {
		SqlDialect dialect = this.storage.knownDialect();
		return "JdbcTemplateRegistry[table=" + this.tableName + ", dialect="
				+ ((dialect != null) ? dialect.dialect() : "not yet detected") + "]";
	}

	/**
	 * Builds a {@link JdbcTemplateRegistry}. Every setting has a default; {@link #build()} checks them all
	 * and reports every violated rule at once.
	 */
	public static final class Builder {

		private final JdbcTemplate jdbcTemplate;

		private String tableName = DEFAULT_TABLE_NAME;

		private JdbcDialect dialect;

		private Duration queryTimeout = DEFAULT_QUERY_TIMEOUT;

		private Builder(JdbcTemplate jdbcTemplate) {
			this.jdbcTemplate = jdbcTemplate;
		}

		/**
		 * Sets the table, {@code name} or {@code schema.name}, each part matching
		 * {@code [A-Za-z_][A-Za-z0-9_]*}; default {@value JdbcTemplateRegistry#DEFAULT_TABLE_NAME}.
		 * @param tableName the table name
		 * @return this builder
		 */
		public Builder tableName(String tableName) {
			this.tableName = tableName;
			return this;
		}

		/**
		 * Sets the dialect instead of detecting it from the database; {@code null} detects it.
		 * @param dialect the dialect, or {@code null}
		 * @return this builder
		 */
		public Builder dialect(JdbcDialect dialect) {
			this.dialect = dialect;
			return this;
		}

		/**
		 * Sets how long one registry operation may take in all, from getting a connection to the commit;
		 * positive, at most a day, default 5 seconds. Statements get it as their JDBC query timeout, rounded
		 * up to whole seconds.
		 * @param queryTimeout the timeout
		 * @return this builder
		 */
		public Builder queryTimeout(Duration queryTimeout) {
			this.queryTimeout = queryTimeout;
			return this;
		}

		/**
		 * Builds the registry. It does not touch the database: the dialect is detected on first use.
		 * @return the registry
		 * @throws InvalidConfigException listing every setting that is out of range
		 */
		public JdbcTemplateRegistry build() {
			return new JdbcTemplateRegistry(this);
		}

		private DataSource validate() {
			List<String> violations = new ArrayList<>();
			DataSource dataSource = null;
			if (this.jdbcTemplate == null) {
				violations.add("jdbcTemplate is null but must be a JdbcTemplate with a DataSource");
			}
			else {
				dataSource = this.jdbcTemplate.getDataSource();
				if (dataSource == null) {
					violations.add("jdbcTemplate has no DataSource but must have one");
				}
			}
			String tableViolation = TableNames.violation(this.tableName);
			if (tableViolation != null) {
				violations.add(tableViolation);
			}
			if (this.queryTimeout == null || this.queryTimeout.isNegative() || this.queryTimeout.isZero()
					|| this.queryTimeout.compareTo(MAX_QUERY_TIMEOUT) > 0) {
				violations.add("queryTimeout is " + this.queryTimeout + " but must be in (PT0S, " + MAX_QUERY_TIMEOUT
						+ "]");
			}
			if (!violations.isEmpty()) {
				throw new InvalidConfigException(violations);
			}
			return dataSource;
		}

	}

}
