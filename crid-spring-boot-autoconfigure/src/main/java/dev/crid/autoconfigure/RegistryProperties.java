package dev.crid.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.crid.etcd.EtcdRegistry;
import dev.crid.r2dbc.R2dbcRegistry;
import dev.crid.jdbc.JdbcTemplateRegistry;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.sql.init.DatabaseInitializationMode;

/**
 * Which registry reserves a node's blocks, and the settings of each kind. Only
 * compile-time constants of the registries' modules are used here, which the compiler
 * copies: these properties are bound in applications without those modules too.
 */
public class RegistryProperties {

	/**
	 * Kind of registry: 'auto' takes the first that the application can have, in this
	 * order: 'etcd' when crid.registry.etcd.endpoints is set, 'jdbc' with a DataSource,
	 * 'r2dbc' with an R2DBC ConnectionFactory, else 'memory' (IDs then are unique within
	 * this process only). A Registry bean of the application's own comes before them all.
	 * A named node reserves in the default node's kind of registry.
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
	 * Settings of the registry on an etcd cluster.
	 */
	private final Etcd etcd = new Etcd();

	public RegistryType getType() {
		return this.type;
	}

	public void setType(RegistryType type) {
		this.type = type;
	}

	public Jdbc getJdbc() {
		return this.jdbc;
	}

	public R2dbc getR2dbc() {
		return this.r2dbc;
	}

	public Etcd getEtcd() {
		return this.etcd;
	}

	/**
	 * Settings of the database registry.
	 */
	public static class Jdbc {

		/**
		 * The value of {@code dialect} that detects it from the connection: {@value}.
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
		private DatabaseInitializationMode initializeSchema = DatabaseInitializationMode.EMBEDDED;

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

		public DatabaseInitializationMode getInitializeSchema() {
			return this.initializeSchema;
		}

		public void setInitializeSchema(DatabaseInitializationMode initializeSchema) {
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
	 * Settings of the database registry on R2DBC.
	 */
	public static class R2dbc {

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
		private DatabaseInitializationMode initializeSchema = DatabaseInitializationMode.EMBEDDED;

		public String getTableName() {
			return this.tableName;
		}

		public void setTableName(String tableName) {
			this.tableName = tableName;
		}

		public DatabaseInitializationMode getInitializeSchema() {
			return this.initializeSchema;
		}

		public void setInitializeSchema(DatabaseInitializationMode initializeSchema) {
			this.initializeSchema = initializeSchema;
		}

	}

	/**
	 * Settings of the registry on an etcd cluster. Only the default node's endpoints and
	 * credentials are used: every node reserves through one client of the cluster.
	 */
	public static class Etcd {

		/**
		 * Client URLs of the etcd cluster's members, e.g.
		 * 'http://etcd-1:2379,http://etcd-2:2379,http://etcd-3:2379'. Give every member:
		 * the client spreads requests over those that answer. Setting them makes
		 * crid.registry.type=auto choose the etcd registry.
		 */
		private List<String> endpoints = new ArrayList<>();

		/**
		 * Prefix of every key the registry writes: the seconds' keys, the layout and the
		 * eviction watermark. Services whose IDs may mix share a prefix; give each
		 * registry of its own a prefix of its own.
		 */
		private String keyPrefix = EtcdRegistry.DEFAULT_KEY_PREFIX;

		/**
		 * Name of the etcd user the registry logs in as, when the cluster has
		 * authentication on; set together with crid.registry.etcd.password.
		 */
		private @Nullable String username;

		/**
		 * Password of the etcd user; set together with crid.registry.etcd.username. Never
		 * printed: a failure shows it as '******', and so do the actuator's env and
		 * configprops endpoints, even where they show values.
		 */
		private @Nullable String password;

		/**
		 * Longest time one registry operation may take in all, retries under contention
		 * included. Keep it below crid.allocation-timeout: a request caught in a leader
		 * election ends only with it, and the node then asks the new leader.
		 */
		private Duration timeout = Duration.ofSeconds(EtcdRegistry.DEFAULT_TIMEOUT_SECONDS);

		/**
		 * How long the keys of a second are kept. The registry evicts older seconds by
		 * itself, at most every 24th of this, and refuses them from then on, so a node
		 * whose clock lags behind by more is refused rather than given their numbers
		 * again. Must exceed crid.max-clock-skew; 0 keeps every key.
		 */
		private Duration retention = Duration.ofDays(EtcdRegistry.DEFAULT_RETENTION_DAYS);

		public List<String> getEndpoints() {
			return this.endpoints;
		}

		public void setEndpoints(List<String> endpoints) {
			this.endpoints = endpoints;
		}

		public String getKeyPrefix() {
			return this.keyPrefix;
		}

		public void setKeyPrefix(String keyPrefix) {
			this.keyPrefix = keyPrefix;
		}

		public @Nullable String getUsername() {
			return this.username;
		}

		public void setUsername(@Nullable String username) {
			this.username = username;
		}

		public @Nullable String getPassword() {
			return this.password;
		}

		public void setPassword(@Nullable String password) {
			this.password = password;
		}

		public Duration getTimeout() {
			return this.timeout;
		}

		public void setTimeout(Duration timeout) {
			this.timeout = timeout;
		}

		public Duration getRetention() {
			return this.retention;
		}

		public void setRetention(Duration retention) {
			this.retention = retention;
		}

	}

}
