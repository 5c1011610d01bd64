package dev.crid.benchmarks;

import java.sql.DatabaseMetaData;
import java.time.Duration;

import com.zaxxer.hikari.HikariDataSource;
import dev.crid.InMemoryRegistry;
import dev.crid.Registry;
import dev.crid.jdbc.JdbcTemplateRegistry;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A registry opened for a benchmark, together with the connection pool it holds, if any.
 * A database registry's tables are the benchmark's own: created when it opens, dropped
 * when it closes.
 */
final class OpenRegistry implements AutoCloseable {

	private static final Duration DELAY = Duration.ofMillis(1);

	private final Registry registry;

	private final HikariDataSource dataSource;

	private final String tableName;

	private OpenRegistry(Registry registry, HikariDataSource dataSource, String tableName) {
		this.registry = registry;
		this.dataSource = dataSource;
		this.tableName = tableName;
	}

	/**
	 * Opens the given registry; a database registry gets its own table, created if
	 * absent, named {@code baseName} as {@link BenchmarkTables#named} names it, and a
	 * pool of {@code poolSize} connections.
	 */
	static OpenRegistry open(BenchmarkRegistry kind, String baseName, int poolSize) {
		if (kind == BenchmarkRegistry.DELAYED) {
			return new OpenRegistry(new DelayedRegistry(new InMemoryRegistry(), DELAY), null, null);
		}
		if (kind.database() == null) {
			return new OpenRegistry(new InMemoryRegistry(), null, null);
		}
		String tableName = BenchmarkTables.named(baseName);
		HikariDataSource dataSource = kind.database().dataSource(poolSize);
		try {
			JdbcTemplateRegistry registry = JdbcTemplateRegistry.builder(new JdbcTemplate(dataSource))
				.tableName(tableName)
				.build();
			registry.ensureSchema();
			return new OpenRegistry(registry, dataSource, tableName);
		}
		catch (RuntimeException ex) {
			dataSource.close();
			throw ex;
		}
	}

	Registry registry() {
		return this.registry;
	}

	/**
	 * The registry's table as it is named in the database; {@code null} for the in-memory
	 * registries.
	 */
	String tableName() {
		return this.tableName;
	}

	/**
	 * The pool the registry takes its connections from; {@code null} for the in-memory
	 * registry.
	 */
	HikariDataSource dataSource() {
		return this.dataSource;
	}

	/**
	 * Describes the database behind the registry, for the report.
	 */
	String describe() {
		if (this.dataSource == null) {
			return this.registry.toString();
		}
		ConnectionCallback<String> productAndVersion = (connection) -> {
			DatabaseMetaData metaData = connection.getMetaData();
			return metaData.getDatabaseProductName() + " " + metaData.getDatabaseProductVersion();
		};
		return new JdbcTemplate(this.dataSource).execute(productAndVersion);
	}

	/**
	 * Drops the registry's tables (the allocation table and the metadata beside it) and
	 * closes the pool.
	 */
	@Override
	public void close() {
		if (this.dataSource != null) {
			try {
				JdbcTemplate jdbc = new JdbcTemplate(this.dataSource);
				jdbc.execute("DROP TABLE IF EXISTS " + this.tableName);
				jdbc.execute("DROP TABLE IF EXISTS " + this.tableName + "_meta");
			}
			finally {
				this.dataSource.close();
			}
		}
	}

}
