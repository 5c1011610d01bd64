package dev.crid.autoconfigure.slices.datajdbc;

import dev.crid.autoconfigure.slices.PostgreSqlSlice;
import dev.crid.jdbc.JdbcDialect;
import dev.crid.testsupport.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import org.springframework.boot.jdbc.test.autoconfigure.AutoConfigureTestDatabase;
import org.springframework.boot.jdbc.test.autoconfigure.AutoConfigureTestDatabase.Replace;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@code @DataJdbcTest} with crid on PostgreSQL instead of the embedded database.
 */
@AutoConfigureTestDatabase(replace = Replace.NONE)
class PostgreSqlDataJdbcSliceTest extends DataJdbcSliceTest {

	private static final String REGISTRY_TABLE = "crid_slice_data_jdbc_allocations";

	@BeforeAll
	static void needsPostgreSql() {
		// Skips the class here when PostgreSQL is missing: an abort while Spring loads
		// the context is an error.
		TestDatabase.POSTGRESQL.endpoint();
	}

	@DynamicPropertySource
	static void postgreSql(DynamicPropertyRegistry properties) {
		PostgreSqlSlice.register(properties, REGISTRY_TABLE);
	}

	@AfterAll
	static void dropTables() {
		PostgreSqlSlice.drop(REGISTRY_TABLE);
	}

	@Override
	JdbcDialect expectedDialect() {
		return JdbcDialect.POSTGRESQL;
	}

}
