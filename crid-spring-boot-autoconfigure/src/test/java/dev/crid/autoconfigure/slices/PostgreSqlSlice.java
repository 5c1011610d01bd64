package dev.crid.autoconfigure.slices;

import com.zaxxer.hikari.HikariDataSource;
import dev.crid.testsupport.TestDatabase;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * Points a slice test with {@code @AutoConfigureTestDatabase(replace = NONE)} at the test PostgreSQL, with a
 * registry table of its own that crid creates, and drops the tables afterwards.
 */
public final class PostgreSqlSlice {

	private PostgreSqlSlice() {
	}

	/**
	 * Adds the DataSource and crid settings.
	 * @param properties where the test's properties go
	 * @param registryTable the name of the registry table, which crid creates
	 */
	public static void register(DynamicPropertyRegistry properties, String registryTable) {
		TestDatabase.Endpoint database = TestDatabase.POSTGRESQL.endpoint();
		properties.add("spring.datasource.url", database::url);
		properties.add("spring.datasource.username", database::username);
		properties.add("spring.datasource.password", database::password);
		properties.add("crid.registry.jdbc.initialize-schema", () -> "always");
		properties.add("crid.registry.jdbc.table-name", () -> registryTable);
	}

	/**
	 * Drops the registry's tables (its allocation table and the metadata table beside it) and the test's
	 * own, if they exist.
	 * @param registryTable the name of the registry table
	 * @param tables the other tables the test created
	 */
	public static void drop(String registryTable, String... tables) {
		try (HikariDataSource dataSource = TestDatabase.POSTGRESQL.dataSource(1)) {
			JdbcTemplate jdbc = new JdbcTemplate(dataSource);
			jdbc.execute("DROP TABLE IF EXISTS " + registryTable);
			jdbc.execute("DROP TABLE IF EXISTS " + registryTable + "_meta");
			for (String table : tables) {
				jdbc.execute("DROP TABLE IF EXISTS " + table);
			}
		}
	}

}
