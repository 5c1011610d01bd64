package dev.crid.jdbc;

import java.time.Duration;
import java.util.Objects;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.crid.testsupport.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The GENERIC dialect (update, else insert, retried on a duplicate key), forced on
 * PostgreSQL.
 */
class GenericDialectOnPostgreSqlIntegrationTest extends AbstractJdbcTemplateRegistryIntegrationTest {

	@Override
	protected HikariDataSource createDataSource(int poolSize) {
		return TestDatabase.POSTGRESQL.dataSource(poolSize);
	}

	@Override
	protected JdbcDialect detectedDialect() {
		return JdbcDialect.POSTGRESQL;
	}

	@Override
	protected JdbcDialect forcedDialect() {
		return JdbcDialect.GENERIC;
	}

	@Override
	protected String schemaName() {
		return "public";
	}

	@Test
	void aReservationWhoseGuardMissesTheMetadataRowThoughItsSecondIsKeptIsTriedAgainNotRefused() {
		// A trigger makes the first three guards' UPDATE of the metadata row change no
		// row, as a row that another instance's transaction holds may be missed on H2:
		// the second is not below the watermark, so the registry must try again, not
		// refuse it as evicted.
		String table = uniqueTableName("guard_misses");
		JdbcTemplate jdbc = jdbcTemplate();
		JdbcTemplateRegistry registry = JdbcTemplateRegistry.builder(jdbc)
			.tableName(table)
			.dialect(JdbcDialect.GENERIC)
			.retention(Duration.ZERO)
			.build();
		try {
			registry.ensureSchema();
			assertThat(registry.allocate(1, 10)).isZero();
			jdbc.execute("CREATE SEQUENCE " + table + "_misses");
			jdbc.execute("CREATE FUNCTION " + table + "_miss() RETURNS trigger AS $$ BEGIN IF nextval('" + table
					+ "_misses') <= 3 THEN RETURN NULL; END IF; RETURN NEW; END $$ LANGUAGE plpgsql");
			jdbc.execute("CREATE TRIGGER " + table + "_miss BEFORE UPDATE ON " + table + "_meta FOR EACH ROW "
					+ "EXECUTE FUNCTION " + table + "_miss()");
			assertThat(registry.allocate(1, 10)).isEqualTo(10);
			assertThat(jdbc.queryForObject("SELECT last_value FROM " + table + "_misses", Long.class)).as("guards run")
				.isEqualTo(4);
		}
		finally {
			TestDatabase.dropRegistryTables(Objects.requireNonNull(jdbc.getDataSource()), table);
			jdbc.execute("DROP FUNCTION IF EXISTS " + table + "_miss()");
			jdbc.execute("DROP SEQUENCE IF EXISTS " + table + "_misses");
		}
	}

}
