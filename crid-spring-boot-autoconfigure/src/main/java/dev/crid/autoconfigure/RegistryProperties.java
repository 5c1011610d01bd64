package dev.crid.autoconfigure;

import java.time.Duration;

import dev.crid.r2dbc.R2dbcRegistry;
import dev.crid.jdbc.JdbcTemplateRegistry;

import org.springframework.boot.sql.init.DatabaseInitializationMode;

/**
 * Which registry reserves a node's blocks, and the settings of each kind. Only
 * compile-time constants of the registries' modules are used here, which the compiler
 * copies: these properties are bound in applications without those modules too.
 */
public class RegistryProperties {

	/**
	 * Kind of registry: 'auto' takes the first that the application can have, in this
	 * order: 'jdbc' with a DataSource, 'r2dbc' with an R2DBC ConnectionFactory, else
	 * 'memory' (IDs then are unique within this process only). A Registry bean of the
	 * application's own comes before them all. A named node reserves in the default
	 * node's kind of registry.
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

}
