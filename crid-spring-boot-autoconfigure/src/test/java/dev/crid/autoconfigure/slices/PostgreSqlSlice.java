package dev.crid.autoconfigure.slices;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

import com.zaxxer.hikari.HikariDataSource;
import dev.crid.testsupport.TestDatabase;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * Points a slice test with {@code @AutoConfigureTestDatabase(replace = NONE)}, or an
 * R2DBC slice, at the test PostgreSQL, in a schema of this run's own (builds on the same
 * database may run at the same time, with the same table names), with a registry table
 * that crid creates, and drops the schema, and so only what the test created, afterwards.
 */
public final class PostgreSqlSlice {

	private static final Map<String, String> schemas = new ConcurrentHashMap<>();

	private PostgreSqlSlice() {
	}

	/**
	 * Creates the test's schema and adds the DataSource (whose tables go to that schema)
	 * and crid settings.
	 * @param properties where the test's properties go
	 * @param registryTable the name of the registry table, which crid creates; it also
	 * names the test's schema for {@link #drop(String)}
	 */
	public static void register(DynamicPropertyRegistry properties, String registryTable) {
		TestDatabase.Endpoint database = TestDatabase.POSTGRESQL.endpoint();
		String schema = schemas.computeIfAbsent(registryTable, (table) -> createSchema());
		String url = database.url() + (database.url().contains("?") ? "&" : "?") + "currentSchema=" + schema;
		properties.add("spring.datasource.url", () -> url);
		properties.add("spring.datasource.username", database::username);
		properties.add("spring.datasource.password", database::password);
		properties.add("crid.registry.jdbc.initialize-schema", () -> "always");
		properties.add("crid.registry.jdbc.table-name", () -> registryTable);
	}

	/**
	 * Creates the test's schema and adds the R2DBC connection factory's URL (whose tables
	 * go to that schema) and crid's settings for its registry there.
	 * @param properties where the test's properties go
	 * @param registryTable the name of the registry table, which crid creates; it also
	 * names the test's schema for {@link #drop(String)}
	 */
	public static void registerR2dbc(DynamicPropertyRegistry properties, String registryTable) {
		TestDatabase.Endpoint database = TestDatabase.POSTGRESQL.endpoint();
		String schema = schemas.computeIfAbsent(registryTable, (table) -> createSchema());
		String url = "r2dbc:" + database.url().substring("jdbc:".length()).replaceFirst("\\?.*", "") + "?schema="
				+ schema;
		properties.add("spring.r2dbc.url", () -> url);
		properties.add("spring.r2dbc.username", database::username);
		properties.add("spring.r2dbc.password", database::password);
		properties.add("crid.registry.r2dbc.initialize-schema", () -> "always");
		properties.add("crid.registry.r2dbc.table-name", () -> registryTable);
	}

	private static String createSchema() {
		String schema = "crid_slice_" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 16);
		try (HikariDataSource dataSource = TestDatabase.POSTGRESQL.dataSource(1)) {
			new JdbcTemplate(dataSource).execute("CREATE SCHEMA " + schema);
		}
		return schema;
	}

	/**
	 * Drops the test's schema with every table in it: the registry's and the test's own.
	 * @param registryTable the name of the registry table given to {@link #register}
	 */
	public static void drop(String registryTable) {
		String schema = schemas.remove(registryTable);
		if (schema == null) {
			return;
		}
		try (HikariDataSource dataSource = TestDatabase.POSTGRESQL.dataSource(1)) {
			new JdbcTemplate(dataSource).execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
		}
	}

}
