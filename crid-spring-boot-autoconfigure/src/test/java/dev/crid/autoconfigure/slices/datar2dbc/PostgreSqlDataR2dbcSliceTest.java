package dev.crid.autoconfigure.slices.datar2dbc;

import dev.crid.autoconfigure.slices.PostgreSqlSlice;
import dev.crid.testsupport.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@code @DataR2dbcTest} with crid on PostgreSQL, through its R2DBC driver, instead of
 * the embedded database.
 */
class PostgreSqlDataR2dbcSliceTest extends DataR2dbcSliceTest {

	private static final String REGISTRY_TABLE = "crid_slice_data_r2dbc_allocations";

	@BeforeAll
	static void needsPostgreSql() {
		// Skips the class here when PostgreSQL is missing: an abort while Spring loads
		// the context is an error.
		TestDatabase.POSTGRESQL.endpoint();
	}

	@DynamicPropertySource
	static void postgreSql(DynamicPropertyRegistry properties) {
		PostgreSqlSlice.registerR2dbc(properties, REGISTRY_TABLE);
	}

	@AfterAll
	static void dropTables() {
		PostgreSqlSlice.drop(REGISTRY_TABLE);
	}

	@Override
	String expectedDialect() {
		return "postgresql";
	}

}
