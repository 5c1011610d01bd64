package dev.crid.autoconfigure;

import java.time.Duration;
import java.time.Instant;

import dev.crid.CridLayout;
import dev.crid.CridNode;
import dev.crid.data.r2dbc.R2dbcRegistry;
import dev.crid.jdbc.JdbcTemplateRegistry;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties for crid, under the prefix {@code crid}. Every default is the one crid-core
 * (and crid-jdbc) uses, so the starter and the library cannot drift apart.
 */
@ConfigurationProperties("crid")
public class CridProperties {

	/**
	 * Whether to auto-configure crid: the node, its registry, and the Jackson, health, metrics and endpoint
	 * support.
	 */
	private boolean enabled = true;

	/**
	 * Instant the ID timestamps count from, as ISO-8601. Must not be in the future. Every node that shares
	 * a registry or reads another's IDs must use the same epoch.
	 */
	private Instant epoch = CridLayout.DEFAULT_EPOCH;

	/**
	 * Bits of an ID that hold the timestamp (whole seconds since the epoch). With the sequence bits it
	 * must add up to 63.
	 */
	private int timestampBits = CridLayout.DEFAULT_TIMESTAMP_BITS;

	/**
	 * Bits of an ID that hold the sequence number within a second. With the timestamp bits it must add up
	 * to 63.
	 */
	private int sequenceBits = CridLayout.DEFAULT_SEQUENCE_BITS;

	/**
	 * Sequence numbers reserved per registry call, in [1, 2^sequence-bits]. Larger blocks mean fewer
	 * registry calls and larger gaps when a node stops with part of a block unused.
	 */
	private long blockSize = CridNode.DEFAULT_BLOCK_SIZE;

	/**
	 * IDs left in the current block below which the next block is reserved in the background. Must not
	 * exceed the block size; below 1 turns pre-allocation off. Keep it at least the peak rate of IDs per
	 * second times the registry's latency.
	 */
	private long threshold = CridNode.DEFAULT_THRESHOLD;

	/**
	 * Longest time a caller of nextId() waits for the registry when the block has run out.
	 */
	private Duration allocationTimeout = CridNode.DEFAULT_ALLOCATION_TIMEOUT;

	/**
	 * How far the node's clock may be from the registry's (the database's) before it refuses to serve IDs
	 * and the health indicator reports DOWN. Measured at every reservation; registries that do not tell
	 * their clock (in-memory, H2, the generic dialect) are not checked.
	 */
	private Duration maxClockSkew = CridNode.DEFAULT_MAX_CLOCK_SKEW;

	/**
	 * Where blocks of sequence numbers are reserved.
	 */
	private final Registry registry = new Registry();

	/**
	 * How crid IDs are written as JSON.
	 */
	private final Jackson jackson = new Jackson();

	/**
	 * How Spring MVC and WebFlux applications answer requests that crid cannot serve.
	 */
	private final Web web = new Web();

	/**
	 * Returns whether crid is auto-configured.
	 * @return {@code true} unless switched off
	 */
	public boolean isEnabled() {
		return this.enabled;
	}

	/**
	 * Sets whether crid is auto-configured.
	 * @param enabled {@code false} to switch the auto-configuration off
	 */
	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	/**
	 * Returns the instant the ID timestamps count from.
	 * @return the epoch
	 */
	public Instant getEpoch() {
		return this.epoch;
	}

	/**
	 * Sets the instant the ID timestamps count from.
	 * @param epoch the epoch, not in the future
	 */
	public void setEpoch(Instant epoch) {
		this.epoch = epoch;
	}

	/**
	 * Returns the number of timestamp bits.
	 * @return the timestamp bits
	 */
	public int getTimestampBits() {
		return this.timestampBits;
	}

	/**
	 * Sets the number of timestamp bits.
	 * @param timestampBits bits in [0, 63], adding up to 63 with the sequence bits
	 */
	public void setTimestampBits(int timestampBits) {
		this.timestampBits = timestampBits;
	}

	/**
	 * Returns the number of sequence bits.
	 * @return the sequence bits
	 */
	public int getSequenceBits() {
		return this.sequenceBits;
	}

	/**
	 * Sets the number of sequence bits.
	 * @param sequenceBits bits in [0, 63], adding up to 63 with the timestamp bits
	 */
	public void setSequenceBits(int sequenceBits) {
		this.sequenceBits = sequenceBits;
	}

	/**
	 * Returns the number of sequence numbers reserved per registry call.
	 * @return the block size
	 */
	public long getBlockSize() {
		return this.blockSize;
	}

	/**
	 * Sets the number of sequence numbers reserved per registry call.
	 * @param blockSize the block size, in [1, 2^sequenceBits]
	 */
	public void setBlockSize(long blockSize) {
		this.blockSize = blockSize;
	}

	/**
	 * Returns the number of IDs left in a block below which the next one is reserved.
	 * @return the threshold
	 */
	public long getThreshold() {
		return this.threshold;
	}

	/**
	 * Sets the number of IDs left in a block below which the next one is reserved.
	 * @param threshold the threshold, at most the block size; below 1 turns pre-allocation off
	 */
	public void setThreshold(long threshold) {
		this.threshold = threshold;
	}

	/**
	 * Returns how long a caller waits for the registry at most.
	 * @return the allocation timeout
	 */
	public Duration getAllocationTimeout() {
		return this.allocationTimeout;
	}

	/**
	 * Sets how long a caller waits for the registry at most.
	 * @param allocationTimeout a positive duration of at most one day
	 */
	public void setAllocationTimeout(Duration allocationTimeout) {
		this.allocationTimeout = allocationTimeout;
	}

	/**
	 * Returns how far the node's clock may be from the registry's.
	 * @return the largest clock skew allowed
	 */
	public Duration getMaxClockSkew() {
		return this.maxClockSkew;
	}

	/**
	 * Sets how far the node's clock may be from the registry's.
	 * @param maxClockSkew a positive duration
	 */
	public void setMaxClockSkew(Duration maxClockSkew) {
		this.maxClockSkew = maxClockSkew;
	}

	/**
	 * Returns the registry settings.
	 * @return the registry settings
	 */
	public Registry getRegistry() {
		return this.registry;
	}

	/**
	 * Returns the JSON settings.
	 * @return the JSON settings
	 */
	public Jackson getJackson() {
		return this.jackson;
	}

	/**
	 * Returns the web settings.
	 * @return the web settings
	 */
	public Web getWeb() {
		return this.web;
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
		 * Retry-After sent with a 503 answer when no ID could be handed out, in whole seconds (rounded up).
		 */
		private Duration retryAfter = Duration.ofSeconds(5);

		/**
		 * Returns the problem-details settings.
		 * @return the problem-details settings
		 */
		public ProblemDetails getProblemDetails() {
			return this.problemDetails;
		}

		/**
		 * Returns the Retry-After sent with a 503 answer.
		 * @return the delay
		 */
		public Duration getRetryAfter() {
			return this.retryAfter;
		}

		/**
		 * Sets the Retry-After sent with a 503 answer.
		 * @param retryAfter the delay, rounded up to whole seconds, at least one
		 */
		public void setRetryAfter(Duration retryAfter) {
			this.retryAfter = retryAfter;
		}

	}

	/**
	 * crid's RFC 9457 problem details for Spring MVC and WebFlux.
	 */
	public static class ProblemDetails {

		/**
		 * Whether crid answers a request whose handler failed with a CridException (no ID could be handed
		 * out, e.g. the registry stayed unreachable past the allocation timeout) with 503 Service
		 * Unavailable, Retry-After and a problem detail, and a malformed CridId request parameter with 400
		 * and a problem detail naming the parameter and the reason. An application's own exception handling
		 * for CridException wins either way.
		 */
		private boolean enabled = true;

		/**
		 * Returns whether crid's problem details are on.
		 * @return {@code true} unless switched off
		 */
		public boolean isEnabled() {
			return this.enabled;
		}

		/**
		 * Sets whether crid's problem details are on.
		 * @param enabled {@code false} to leave these failures to Spring's own handling
		 */
		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

	}

	/**
	 * How crid IDs are written as JSON.
	 */
	public static class Jackson {

		/**
		 * Whether long and Long properties annotated @Crid (dev.crid.hibernate.Crid) are written as JSON
		 * strings and read from strings or numbers, so that JavaScript clients, whose numbers are exact only
		 * up to 2^53, see every ID exactly. CridId values are written as strings either way.
		 */
		private boolean idsAsStrings = true;

		/**
		 * Returns whether {@code @Crid} properties are written as JSON strings.
		 * @return {@code true} unless switched off
		 */
		public boolean isIdsAsStrings() {
			return this.idsAsStrings;
		}

		/**
		 * Sets whether {@code @Crid} properties are written as JSON strings.
		 * @param idsAsStrings {@code false} to write them as JSON numbers
		 */
		public void setIdsAsStrings(boolean idsAsStrings) {
			this.idsAsStrings = idsAsStrings;
		}

	}

	/**
	 * Which registry reserves the blocks, and how.
	 */
	public static class Registry {

		/**
		 * Kind of registry: 'auto' uses the database when the application has a DataSource, else through
		 * R2DBC when it has a ConnectionFactory, else an in-memory registry (IDs then are unique within this
		 * process only); 'jdbc' requires the DataSource; 'r2dbc' requires the ConnectionFactory; 'memory'
		 * never uses a database.
		 */
		private RegistryType type = RegistryType.AUTO;

		/**
		 * Settings of the database registry.
		 */
		private final Jdbc jdbc = new Jdbc();

		/**
		 * Settings of the database registry on R2DBC.
		 */
		private final R2dbc r2dbc = new R2dbc();

		/**
		 * Returns the kind of registry.
		 * @return the registry type
		 */
		public RegistryType getType() {
			return this.type;
		}

		/**
		 * Sets the kind of registry.
		 * @param type the registry type
		 */
		public void setType(RegistryType type) {
			this.type = type;
		}

		/**
		 * Returns the database registry settings.
		 * @return the JDBC settings
		 */
		public Jdbc getJdbc() {
			return this.jdbc;
		}

		/**
		 * Returns the settings of the database registry on R2DBC.
		 * @return the R2DBC settings
		 */
		public R2dbc getR2dbc() {
			return this.r2dbc;
		}

	}

	/**
	 * Settings of the database registry on R2DBC, for applications with a ConnectionFactory and no
	 * DataSource.
	 */
	public static class R2dbc {

		/**
		 * Table that holds the reserved blocks, as 'name' or 'schema.name'; the same table as the JDBC
		 * registry's, shareable with it and with Go nodes.
		 */
		private String tableName = R2dbcRegistry.DEFAULT_TABLE_NAME;

		/**
		 * When to create the registry table at start-up if it does not exist: 'embedded' only for embedded
		 * databases (H2), 'always', or 'never'. When it is not created, start-up checks that it exists.
		 */
		private SchemaInitialization initializeSchema = SchemaInitialization.EMBEDDED;

		/**
		 * Returns the registry table's name.
		 * @return the table name
		 */
		public String getTableName() {
			return this.tableName;
		}

		/**
		 * Sets the registry table's name.
		 * @param tableName {@code name} or {@code schema.name}
		 */
		public void setTableName(String tableName) {
			this.tableName = tableName;
		}

		/**
		 * Returns when the registry table is created at start-up.
		 * @return the schema initialization mode
		 */
		public SchemaInitialization getInitializeSchema() {
			return this.initializeSchema;
		}

		/**
		 * Sets when the registry table is created at start-up.
		 * @param initializeSchema the schema initialization mode
		 */
		public void setInitializeSchema(SchemaInitialization initializeSchema) {
			this.initializeSchema = initializeSchema;
		}

	}

	/**
	 * Settings of the database registry.
	 */
	public static class Jdbc {

		/**
		 * Table that holds the reserved blocks, as 'name' or 'schema.name'. Every node that shares the
		 * registry, Java or Go, must use the same table.
		 */
		private String tableName = JdbcTemplateRegistry.DEFAULT_TABLE_NAME;

		/**
		 * When to create the registry table at start-up if it does not exist: 'embedded' only for embedded
		 * databases, 'always', or 'never'. When it is not created, start-up checks that it exists.
		 */
		private SchemaInitialization initializeSchema = SchemaInitialization.EMBEDDED;

		/**
		 * Longest time one statement against the registry table may run.
		 */
		private Duration queryTimeout = Duration.ofSeconds(5);

		/**
		 * How long rows of the registry table are kept. The registry evicts older seconds by itself, at most
		 * every 24th of this, and refuses them from then on, so a node whose clock lags behind by more is
		 * refused rather than given their numbers again. Must exceed crid.max-clock-skew; 0 keeps every row.
		 */
		private Duration retention = Duration.ofDays(1);

		/**
		 * Returns the registry table's name.
		 * @return the table name
		 */
		public String getTableName() {
			return this.tableName;
		}

		/**
		 * Sets the registry table's name.
		 * @param tableName {@code name} or {@code schema.name}
		 */
		public void setTableName(String tableName) {
			this.tableName = tableName;
		}

		/**
		 * Returns when the registry table is created at start-up.
		 * @return the schema initialization mode
		 */
		public SchemaInitialization getInitializeSchema() {
			return this.initializeSchema;
		}

		/**
		 * Sets when the registry table is created at start-up.
		 * @param initializeSchema the schema initialization mode
		 */
		public void setInitializeSchema(SchemaInitialization initializeSchema) {
			this.initializeSchema = initializeSchema;
		}

		/**
		 * Returns the longest time one statement against the registry table may run.
		 * @return the query timeout
		 */
		public Duration getQueryTimeout() {
			return this.queryTimeout;
		}

		/**
		 * Sets the longest time one statement against the registry table may run.
		 * @param queryTimeout the query timeout, in whole seconds as JDBC counts them
		 */
		public void setQueryTimeout(Duration queryTimeout) {
			this.queryTimeout = queryTimeout;
		}

		/**
		 * Returns how long rows of the registry table are kept.
		 * @return the retention; zero keeps every row
		 */
		public Duration getRetention() {
			return this.retention;
		}

		/**
		 * Sets how long rows of the registry table are kept.
		 * @param retention at least a second and more than crid.max-clock-skew, or zero to keep every row
		 */
		public void setRetention(Duration retention) {
			this.retention = retention;
		}

	}

	/**
	 * The kinds of registry that {@code crid.registry.type} selects.
	 */
	public enum RegistryType {

		/**
		 * The database registry when the application has a DataSource, else the database registry on R2DBC
		 * when it has a ConnectionFactory, else the in-memory one.
		 */
		AUTO,

		/**
		 * The database registry, through the application's DataSource; start-up fails without one.
		 */
		JDBC,

		/**
		 * The database registry on R2DBC, through the application's ConnectionFactory; start-up fails
		 * without one.
		 */
		R2DBC,

		/**
		 * An in-memory registry: IDs are unique within this process only.
		 */
		MEMORY

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
		 * Create the table if it is missing, on embedded databases (H2, HSQLDB, Derby) only.
		 */
		EMBEDDED,

		/**
		 * Never create the table; start-up fails when it is missing.
		 */
		NEVER

	}

}
