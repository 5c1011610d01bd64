package dev.crid.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.crid.testsupport.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The MySQL dialect's trap: on a pooled connection, {@code LAST_INSERT_ID()} still holds
 * the value of an earlier update when a new second's row is inserted. With one pooled
 * connection every reservation below runs on the same session, so a stale value would
 * show as a new second starting anywhere but 0. MariaDB speaks the same SQL, so the MYSQL
 * dialect is forced on it, through either driver.
 */
class MySqlLastInsertIdTrapIntegrationTest {

	@ParameterizedTest
	@EnumSource(names = { "MARIADB", "MARIADB_THROUGH_MYSQL_DRIVER" })
	void aNewSecondAfterAnUpdateOnTheSameConnectionStartsAtZero(TestDatabase database) {
		String table = "crid_mysql_trap_" + ProcessHandle.current().pid();
		try (HikariDataSource dataSource = database.dataSource(1)) {
			JdbcTemplate jdbcTemplate = new JdbcTemplate(dataSource);
			JdbcTemplateRegistry registry = JdbcTemplateRegistry.builder(jdbcTemplate)
				.tableName(table)
				.dialect(JdbcDialect.MYSQL)
				.build();
			try {
				registry.ensureSchema();
				assertThat(registry.allocate(100, 10)).isZero();
				assertThat(registry.allocate(100, 10)).isEqualTo(10);
				assertThat(registry.allocate(100, 10)).isEqualTo(20);
				assertThat(registry.allocate(101, 7)).as("new second after an update").isZero();
				assertThat(registry.allocate(102, 5)).as("new second after an insert").isZero();
				assertThat(registry.allocate(101, 7)).isEqualTo(7);
				assertThat(registry.allocate(100, 1)).isEqualTo(30);
				assertThat(registry.allocate(103, 1_000)).as("new second after an update of another").isZero();
				assertThat(jdbcTemplate.queryForList("SELECT next_seq FROM " + table + " ORDER BY ts", Long.class))
					.containsExactly(31L, 14L, 5L, 1_000L);
			}
			finally {
				TestDatabase.dropRegistryTables(jdbcTemplate.getDataSource(), table);
			}
		}
	}

}
