package dev.crid.autoconfigure;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import dev.crid.CridId;
import dev.crid.CridLayout;
import dev.crid.CridNode;
import dev.crid.data.r2dbc.R2dbcRegistry;
import dev.crid.jdbc.JdbcTemplateRegistry;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties for crid, under the prefix {@code crid}. Every default is the
 * one crid-core (and crid-jdbc) uses, so the starter and the library cannot drift apart.
 * As in Spring Boot's own properties classes, each field's Javadoc is the property's
 * description (what IDEs show, from the generated metadata); the accessors repeat
 * nothing.
 */
@ConfigurationProperties("crid")
public class CridProperties {

	/**
	 * Whether to auto-configure crid: the node, its registry, and the Jackson, health,
	 * metrics and endpoint support.
	 */
	private boolean enabled = true;

	/**
	 * Instant the ID timestamps count from, as ISO-8601. Must not be in the future. Every
	 * node that shares a registry or reads another's IDs must use the same epoch.
	 */
	private Instant epoch = CridLayout.DEFAULT_EPOCH;

	/**
	 * Bits of an ID that hold the timestamp (whole seconds since the epoch). With the
	 * sequence bits it must add up to 63.
	 */
	private int timestampBits = CridLayout.DEFAULT_TIMESTAMP_BITS;

	/**
	 * Bits of an ID that hold the sequence number within a second. With the timestamp
	 * bits it must add up to 63.
	 */
	private int sequenceBits = CridLayout.DEFAULT_SEQUENCE_BITS;

	/**
	 * Sequence numbers reserved per registry call, in [1, 2^sequence-bits]. Larger blocks
	 * mean fewer registry calls and larger gaps when a node stops with part of a block
	 * unused.
	 */
	private long blockSize = CridNode.DEFAULT_BLOCK_SIZE;

	/**
	 * IDs left in the current block below which the next block is reserved in the
	 * background. Must not exceed the block size; below 1 turns pre-allocation off. Keep
	 * it at least the peak rate of IDs per second times the registry's latency.
	 */
	private long threshold = CridNode.DEFAULT_THRESHOLD;

	/**
	 * Longest time a caller of nextId() waits for the registry when the block has run
	 * out.
	 */
	private Duration allocationTimeout = CridNode.DEFAULT_ALLOCATION_TIMEOUT;

	/**
	 * How far the node's clock may be from the registry's (the database's) before it
	 * refuses to serve IDs and the health indicator reports DOWN. Measured at every
	 * reservation; registries that do not tell their clock (in-memory, H2, the generic
	 * dialect) are not checked.
	 */
	private Duration maxClockSkew = CridNode.DEFAULT_MAX_CLOCK_SKEW;

	/**
	 * How long the node should serve IDs without its registry: it keeps that many
	 * reserved IDs in stock at the rate it hands them out (over the last minute, never
	 * below block-size per second) and tops the stock up in the background. The cost: a
	 * node that stops loses the stock, and an ID may be used up to the runway after the
	 * second it carries. 0 (the default) keeps no stock beyond the next block; at most
	 * one day.
	 */
	private Duration runway = Duration.ZERO;

	/**
	 * How IDs travel as text: 'decimal' ("2147483648007") or 'base32' (13 characters of
	 * Crockford's base32, "00001YG000007"). It applies to CridId values and @Crid
	 * properties written as JSON strings, and to CridId request parameters, which are
	 * read in this form only: a value is never guessed between the two. 'base32' needs
	 * crid.jackson.ids-as-strings=true.
	 */
	private IdFormat idFormat = IdFormat.DECIMAL;

	/**
	 * Where blocks of sequence numbers are reserved.
	 */
	private final RegistryProperties registry = new RegistryProperties();

	/**
	 * Named nodes beside the default one, by name (letters, digits and underscores,
	 * starting with a letter; not 'default'). Each takes the keys of crid.* that shape a
	 * node: epoch, timestamp-bits, sequence-bits, block-size, threshold,
	 * allocation-timeout, max-clock-skew and registry.jdbc.* or registry.r2dbc.*; a key
	 * left out takes the value of crid.*, except the table name, which is
	 * crid_NAME_allocations unless set. Each node reserves in the same kind of registry
	 * as the default node.
	 */
	private final Map<String, Node> nodes = new LinkedHashMap<>();

	/**
	 * How crid IDs are written as JSON.
	 */
	private final Jackson jackson = new Jackson();

	/**
	 * How Spring MVC and WebFlux applications answer requests that crid cannot serve.
	 */
	private final Web web = new Web();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public Instant getEpoch() {
		return this.epoch;
	}

	public void setEpoch(Instant epoch) {
		this.epoch = epoch;
	}

	public int getTimestampBits() {
		return this.timestampBits;
	}

	public void setTimestampBits(int timestampBits) {
		this.timestampBits = timestampBits;
	}

	public int getSequenceBits() {
		return this.sequenceBits;
	}

	public void setSequenceBits(int sequenceBits) {
		this.sequenceBits = sequenceBits;
	}

	public long getBlockSize() {
		return this.blockSize;
	}

	public void setBlockSize(long blockSize) {
		this.blockSize = blockSize;
	}

	public long getThreshold() {
		return this.threshold;
	}

	public void setThreshold(long threshold) {
		this.threshold = threshold;
	}

	public Duration getAllocationTimeout() {
		return this.allocationTimeout;
	}

	public void setAllocationTimeout(Duration allocationTimeout) {
		this.allocationTimeout = allocationTimeout;
	}

	public Duration getMaxClockSkew() {
		return this.maxClockSkew;
	}

	public void setMaxClockSkew(Duration maxClockSkew) {
		this.maxClockSkew = maxClockSkew;
	}

	public Duration getRunway() {
		return this.runway;
	}

	public void setRunway(Duration runway) {
		this.runway = runway;
	}

	public IdFormat getIdFormat() {
		return this.idFormat;
	}

	public void setIdFormat(IdFormat idFormat) {
		this.idFormat = idFormat;
	}

	public RegistryProperties getRegistry() {
		return this.registry;
	}

	public Jackson getJackson() {
		return this.jackson;
	}

	public Web getWeb() {
		return this.web;
	}

	public Map<String, Node> getNodes() {
		return this.nodes;
	}

	/**
	 * The properties of the named node: this class's own values where the node sets none,
	 * and {@code crid_NAME_allocations} as its table unless it sets one.
	 * @param name the node's name, a key of {@link #getNodes()}
	 */
	CridProperties forNode(String name) {
		Node node = this.nodes.getOrDefault(name, new Node());
		CridProperties resolved = new CridProperties();
		resolved.setEpoch(or(node.getEpoch(), this.epoch));
		resolved.setTimestampBits(or(node.getTimestampBits(), this.timestampBits));
		resolved.setSequenceBits(or(node.getSequenceBits(), this.sequenceBits));
		long nodeBlockSize = or(node.getBlockSize(), this.blockSize);
		resolved.setBlockSize(nodeBlockSize);
		resolved.setThreshold(
				or(node.getThreshold(), (this.threshold > nodeBlockSize) ? nodeBlockSize / 2 : this.threshold));
		resolved.setAllocationTimeout(or(node.getAllocationTimeout(), this.allocationTimeout));
		resolved.setMaxClockSkew(or(node.getMaxClockSkew(), this.maxClockSkew));
		resolved.setRunway(or(node.getRunway(), this.runway));
		resolved.getRegistry().setType(this.registry.getType());
		JdbcProperties jdbc = this.registry.getJdbc();
		NodeJdbcProperties nodeJdbc = node.getRegistry().getJdbc();
		resolved.getRegistry().getJdbc().setTableName(or(nodeJdbc.getTableName(), defaultTableName(name)));
		resolved.getRegistry()
			.getJdbc()
			.setInitializeSchema(or(nodeJdbc.getInitializeSchema(), jdbc.getInitializeSchema()));
		resolved.getRegistry().getJdbc().setQueryTimeout(or(nodeJdbc.getQueryTimeout(), jdbc.getQueryTimeout()));
		resolved.getRegistry().getJdbc().setRetention(or(nodeJdbc.getRetention(), jdbc.getRetention()));
		resolved.getRegistry().getJdbc().setDialect(or(nodeJdbc.getDialect(), jdbc.getDialect()));
		R2dbcProperties r2dbc = this.registry.getR2dbc();
		NodeR2dbcProperties nodeR2dbc = node.getRegistry().getR2dbc();
		resolved.getRegistry().getR2dbc().setTableName(or(nodeR2dbc.getTableName(), defaultTableName(name)));
		resolved.getRegistry()
			.getR2dbc()
			.setInitializeSchema(or(nodeR2dbc.getInitializeSchema(), r2dbc.getInitializeSchema()));
		return resolved;
	}

	/** The table of a named node that sets none: {@code crid_NAME_allocations}. */
	static String defaultTableName(String name) {
		return "crid_" + name + "_allocations";
	}

	private static <T> T or(@Nullable T value, T inherited) {
		return (value != null) ? value : inherited;
	}

	/**
	 * A named node: each key left unset takes the value of {@code crid.*}.
	 */
	public static class Node {

		/**
		 * Instant this node's ID timestamps count from, as ISO-8601; crid.epoch when
		 * unset.
		 */
		private @Nullable Instant epoch;

		/**
		 * Bits of this node's IDs that hold the timestamp; crid.timestamp-bits when
		 * unset.
		 */
		private @Nullable Integer timestampBits;

		/**
		 * Bits of this node's IDs that hold the sequence number; crid.sequence-bits when
		 * unset.
		 */
		private @Nullable Integer sequenceBits;

		/**
		 * Sequence numbers this node reserves per registry call; crid.block-size when
		 * unset.
		 */
		private @Nullable Long blockSize;

		/**
		 * IDs left in this node's block below which the next block is reserved;
		 * crid.threshold when unset, or half the node's block size where crid.threshold
		 * exceeds it.
		 */
		private @Nullable Long threshold;

		/**
		 * Longest time a caller of this node waits for the registry;
		 * crid.allocation-timeout when unset.
		 */
		private @Nullable Duration allocationTimeout;

		/**
		 * How far this node's clock may be from the registry's; crid.max-clock-skew when
		 * unset.
		 */
		private @Nullable Duration maxClockSkew;

		/**
		 * How long this node should serve IDs without its registry; crid.runway when
		 * unset.
		 */
		private @Nullable Duration runway;

		/**
		 * Where this node reserves its blocks: its own table, in the registry of the
		 * default node's kind.
		 */
		private final NodeRegistryProperties registry = new NodeRegistryProperties();

		public @Nullable Instant getEpoch() {
			return this.epoch;
		}

		public void setEpoch(@Nullable Instant epoch) {
			this.epoch = epoch;
		}

		public @Nullable Integer getTimestampBits() {
			return this.timestampBits;
		}

		public void setTimestampBits(@Nullable Integer timestampBits) {
			this.timestampBits = timestampBits;
		}

		public @Nullable Integer getSequenceBits() {
			return this.sequenceBits;
		}

		public void setSequenceBits(@Nullable Integer sequenceBits) {
			this.sequenceBits = sequenceBits;
		}

		public @Nullable Long getBlockSize() {
			return this.blockSize;
		}

		public void setBlockSize(@Nullable Long blockSize) {
			this.blockSize = blockSize;
		}

		public @Nullable Long getThreshold() {
			return this.threshold;
		}

		public void setThreshold(@Nullable Long threshold) {
			this.threshold = threshold;
		}

		public @Nullable Duration getAllocationTimeout() {
			return this.allocationTimeout;
		}

		public void setAllocationTimeout(@Nullable Duration allocationTimeout) {
			this.allocationTimeout = allocationTimeout;
		}

		public @Nullable Duration getMaxClockSkew() {
			return this.maxClockSkew;
		}

		public void setMaxClockSkew(@Nullable Duration maxClockSkew) {
			this.maxClockSkew = maxClockSkew;
		}

		public @Nullable Duration getRunway() {
			return this.runway;
		}

		public void setRunway(@Nullable Duration runway) {
			this.runway = runway;
		}

		public NodeRegistryProperties getRegistry() {
			return this.registry;
		}

	}

	/**
	 * Where a named node reserves its blocks.
	 */
	public static class NodeRegistryProperties {

		/**
		 * The node's settings of the database registry; each unset one takes
		 * crid.registry.jdbc's.
		 */
		private final NodeJdbcProperties jdbc = new NodeJdbcProperties();

		/**
		 * The node's settings of the database registry on R2DBC; each unset one takes
		 * crid.registry.r2dbc's.
		 */
		private final NodeR2dbcProperties r2dbc = new NodeR2dbcProperties();

		public NodeJdbcProperties getJdbc() {
			return this.jdbc;
		}

		public NodeR2dbcProperties getR2dbc() {
			return this.r2dbc;
		}

	}

	/**
	 * A named node's settings of the database registry.
	 */
	public static class NodeJdbcProperties {

		/**
		 * The node's table, as 'name' or 'schema.name'; crid_NAME_allocations when unset.
		 */
		private @Nullable String tableName;

		/**
		 * When to create the node's table at start-up;
		 * crid.registry.jdbc.initialize-schema when unset.
		 */
		private @Nullable SchemaInitialization initializeSchema;

		/**
		 * Longest time one statement against the node's table may run;
		 * crid.registry.jdbc.query-timeout when unset.
		 */
		private @Nullable Duration queryTimeout;

		/**
		 * How long rows of the node's table are kept; crid.registry.jdbc.retention when
		 * unset.
		 */
		private @Nullable Duration retention;

		/**
		 * SQL dialect of the node's database; crid.registry.jdbc.dialect when unset.
		 */
		private @Nullable String dialect;

		public @Nullable String getTableName() {
			return this.tableName;
		}

		public void setTableName(@Nullable String tableName) {
			this.tableName = tableName;
		}

		public @Nullable SchemaInitialization getInitializeSchema() {
			return this.initializeSchema;
		}

		public void setInitializeSchema(@Nullable SchemaInitialization initializeSchema) {
			this.initializeSchema = initializeSchema;
		}

		public @Nullable Duration getQueryTimeout() {
			return this.queryTimeout;
		}

		public void setQueryTimeout(@Nullable Duration queryTimeout) {
			this.queryTimeout = queryTimeout;
		}

		public @Nullable Duration getRetention() {
			return this.retention;
		}

		public void setRetention(@Nullable Duration retention) {
			this.retention = retention;
		}

		public @Nullable String getDialect() {
			return this.dialect;
		}

		public void setDialect(@Nullable String dialect) {
			this.dialect = dialect;
		}

	}

	/**
	 * A named node's settings of the database registry on R2DBC.
	 */
	public static class NodeR2dbcProperties {

		/**
		 * The node's table, as 'name' or 'schema.name'; crid_NAME_allocations when unset.
		 */
		private @Nullable String tableName;

		/**
		 * When to create the node's table at start-up;
		 * crid.registry.r2dbc.initialize-schema when unset.
		 */
		private @Nullable SchemaInitialization initializeSchema;

		public @Nullable String getTableName() {
			return this.tableName;
		}

		public void setTableName(@Nullable String tableName) {
			this.tableName = tableName;
		}

		public @Nullable SchemaInitialization getInitializeSchema() {
			return this.initializeSchema;
		}

		public void setInitializeSchema(@Nullable SchemaInitialization initializeSchema) {
			this.initializeSchema = initializeSchema;
		}

	}

	/**
	 * How Spring MVC and WebFlux applications answer requests that crid cannot serve.
	 */
	public static class Web {

		/**
		 * crid's RFC 9457 problem details.
		 */
		private final ProblemDetails problemDetails = new ProblemDetails();

		/**
		 * Retry-After sent with a 503 answer when no ID could be handed out, in whole
		 * seconds (rounded up).
		 */
		private Duration retryAfter = Duration.ofSeconds(5);

		public ProblemDetails getProblemDetails() {
			return this.problemDetails;
		}

		public Duration getRetryAfter() {
			return this.retryAfter;
		}

		public void setRetryAfter(Duration retryAfter) {
			this.retryAfter = retryAfter;
		}

	}

	/**
	 * crid's RFC 9457 problem details for Spring MVC and WebFlux.
	 */
	public static class ProblemDetails {

		/**
		 * Whether crid answers a request whose handler failed with a CridException (no ID
		 * could be handed out, e.g. the registry stayed unreachable past the allocation
		 * timeout) with 503 Service Unavailable, Retry-After and a problem detail, and a
		 * malformed CridId request parameter with 400 and a problem detail naming the
		 * parameter and the reason. An application's own exception handling for
		 * CridException wins either way.
		 */
		private boolean enabled = true;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

	}

	/**
	 * How crid IDs are written as JSON.
	 */
	public static class Jackson {

		/**
		 * Whether long and Long properties annotated @Crid (dev.crid.hibernate.Crid) are
		 * written as JSON strings and read from strings or numbers, so that JavaScript
		 * clients, whose numbers are exact only up to 2^53, see every ID exactly. CridId
		 * values are written as strings either way.
		 */
		private boolean idsAsStrings = true;

		public boolean isIdsAsStrings() {
			return this.idsAsStrings;
		}

		public void setIdsAsStrings(boolean idsAsStrings) {
			this.idsAsStrings = idsAsStrings;
		}

	}

	/**
	 * Which registry reserves the blocks, and how.
	 */
	public static class RegistryProperties {

		/**
		 * Kind of registry: 'auto' uses the database when the application has a
		 * DataSource, else through R2DBC when it has a ConnectionFactory, else an
		 * in-memory registry (IDs then are unique within this process only); 'jdbc'
		 * requires the DataSource; 'r2dbc' requires the ConnectionFactory; 'memory' never
		 * uses a database.
		 */
		private RegistryType type = RegistryType.AUTO;

		/**
		 * Settings of the database registry.
		 */
		private final JdbcProperties jdbc = new JdbcProperties();

		/**
		 * Settings of the database registry on R2DBC.
		 */
		private final R2dbcProperties r2dbc = new R2dbcProperties();

		public RegistryType getType() {
			return this.type;
		}

		public void setType(RegistryType type) {
			this.type = type;
		}

		public JdbcProperties getJdbc() {
			return this.jdbc;
		}

		public R2dbcProperties getR2dbc() {
			return this.r2dbc;
		}

	}

	/**
	 * Settings of the database registry.
	 */
	public static class JdbcProperties {

		// Only crid-jdbc's compile-time constants, which the compiler copies here: these
		// properties are bound in applications without crid-jdbc too, where its classes
		// cannot be loaded.

		/**
		 * The value of {@code crid.registry.jdbc.dialect} that detects the dialect:
		 * {@value}.
		 */
		public static final String AUTO_DIALECT = "auto";

		/**
		 * Table that holds the reserved blocks, as 'name' or 'schema.name'. Every node
		 * that shares the registry, Java or Go, must use the same table.
		 */
		private String tableName = JdbcTemplateRegistry.DEFAULT_TABLE_NAME;

		/**
		 * When to create the registry table at start-up if it does not exist: 'embedded'
		 * only for embedded databases, 'always', or 'never'. When it is not created,
		 * start-up checks that it exists.
		 */
		private SchemaInitialization initializeSchema = SchemaInitialization.EMBEDDED;

		/**
		 * Longest time one statement against the registry table may run.
		 */
		private Duration queryTimeout = Duration.ofSeconds(JdbcTemplateRegistry.DEFAULT_QUERY_TIMEOUT_SECONDS);

		/**
		 * How long rows of the registry table are kept. The registry evicts older seconds
		 * by itself, at most every 24th of this, and refuses them from then on, so a node
		 * whose clock lags behind by more is refused rather than given their numbers
		 * again. Must exceed crid.max-clock-skew; 0 keeps every row.
		 */
		private Duration retention = Duration.ofDays(JdbcTemplateRegistry.DEFAULT_RETENTION_DAYS);

		/**
		 * SQL dialect of the registry's database: 'auto' detects it from the connection,
		 * or one of 'postgresql', 'mariadb', 'mysql', 'h2' and 'generic' forces it.
		 * Either way the statements suit the driver too (MariaDB through MySQL
		 * Connector/J reserves as MySQL does).
		 */
		private String dialect = AUTO_DIALECT;

		public String getTableName() {
			return this.tableName;
		}

		public void setTableName(String tableName) {
			this.tableName = tableName;
		}

		public SchemaInitialization getInitializeSchema() {
			return this.initializeSchema;
		}

		public void setInitializeSchema(SchemaInitialization initializeSchema) {
			this.initializeSchema = initializeSchema;
		}

		public Duration getQueryTimeout() {
			return this.queryTimeout;
		}

		public void setQueryTimeout(Duration queryTimeout) {
			this.queryTimeout = queryTimeout;
		}

		public Duration getRetention() {
			return this.retention;
		}

		public void setRetention(Duration retention) {
			this.retention = retention;
		}

		public String getDialect() {
			return this.dialect;
		}

		public void setDialect(String dialect) {
			this.dialect = dialect;
		}

	}

	/**
	 * Settings of the database registry on R2DBC, for applications with a
	 * ConnectionFactory and no DataSource.
	 */
	public static class R2dbcProperties {

		/**
		 * Table that holds the reserved blocks, as 'name' or 'schema.name'; the same
		 * table as the JDBC registry's, shareable with it and with Go nodes.
		 */
		private String tableName = R2dbcRegistry.DEFAULT_TABLE_NAME;

		/**
		 * When to create the registry table at start-up if it does not exist: 'embedded'
		 * only for embedded databases (H2), 'always', or 'never'. When it is not created,
		 * start-up checks that it exists.
		 */
		private SchemaInitialization initializeSchema = SchemaInitialization.EMBEDDED;

		public String getTableName() {
			return this.tableName;
		}

		public void setTableName(String tableName) {
			this.tableName = tableName;
		}

		public SchemaInitialization getInitializeSchema() {
			return this.initializeSchema;
		}

		public void setInitializeSchema(SchemaInitialization initializeSchema) {
			this.initializeSchema = initializeSchema;
		}

	}

	/**
	 * The kinds of registry that {@code crid.registry.type} selects.
	 */
	public enum RegistryType {

		/**
		 * The database registry when the application has a DataSource, else the database
		 * registry on R2DBC when it has a ConnectionFactory, else the in-memory one.
		 */
		AUTO,

		/**
		 * The database registry, through the application's DataSource; start-up fails
		 * without one.
		 */
		JDBC,

		/**
		 * The database registry on R2DBC, through the application's ConnectionFactory;
		 * start-up fails without one.
		 */
		R2DBC,

		/**
		 * An in-memory registry: IDs are unique within this process only.
		 */
		MEMORY

	}

	/**
	 * The forms of an ID as text that {@code crid.id-format} selects. Each reads its own
	 * form only: the two overlap ({@code 0000000000001} is valid in both), so text is
	 * never guessed to be one or the other.
	 */
	public enum IdFormat {

		/**
		 * The decimal value, as {@link CridId#toString()} writes it and
		 * {@link CridId#parse(String)} reads it.
		 */
		DECIMAL,

		/**
		 * Crockford's base32, as {@link CridId#toBase32()} writes it and
		 * {@link CridId#parseBase32(CharSequence)} reads it: 13 characters, upper case on
		 * output; case, hyphens, I, L and O forgiven on input.
		 */
		BASE32;

		/**
		 * Writes an ID in this form.
		 * @param id the ID
		 * @return its text
		 */
		public String print(CridId id) {
			return switch (this) {
				case DECIMAL -> id.toString();
				case BASE32 -> id.toBase32();
			};
		}

		/**
		 * Reads an ID in this form, and in no other.
		 * @param text the text
		 * @return the ID
		 * @throws IllegalArgumentException quoting the text, and saying what is expected,
		 * if it is not an ID in this form
		 */
		public CridId parse(String text) {
			return switch (this) {
				case DECIMAL -> CridId.parse(text);
				case BASE32 -> CridId.parseBase32(text);
			};
		}

		/**
		 * Returns the value {@code crid.id-format} takes for this form, in lower case:
		 * {@code decimal} or {@code base32}.
		 * @return the value
		 */
		public String propertyValue() {
			return name().toLowerCase(Locale.ROOT);
		}

	}

	/**
	 * When the registry table is created at start-up.
	 */
	public enum SchemaInitialization {

		/**
		 * Create the table if it is missing, on any database.
		 */
		ALWAYS,

		/**
		 * Create the table if it is missing, on embedded databases (H2, HSQLDB, Derby)
		 * only.
		 */
		EMBEDDED,

		/**
		 * Never create the table; start-up fails when it is missing.
		 */
		NEVER

	}

}
