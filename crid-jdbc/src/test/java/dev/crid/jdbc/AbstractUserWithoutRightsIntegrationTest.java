package dev.crid.jdbc;

import java.time.Duration;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.dao.PermissionDeniedDataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.crid.RegistryException;
import dev.crid.testsupport.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A registry whose database user may log in and see the table but not write to it: every
 * attempt is refused the same way, so the failure is not retryable and a node throws it
 * at once. Each class creates its own user and tables, and drops them at the end.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractUserWithoutRightsIntegrationTest {

	/** The password of the user the test creates. */
	protected static final String PASSWORD = "crid-test-no-rights";

	private HikariDataSource admin;

	private String user;

	private String table;

	/**
	 * Returns the database, reached as its administrator.
	 * @return the database
	 */
	protected abstract TestDatabase database();

	/**
	 * Returns the statements that create a user with the given name and
	 * {@link #PASSWORD}, who may log in and read the allocation table but do nothing else
	 * with the registry's tables.
	 * @param user the user's name
	 * @param table the allocation table
	 * @return the statements
	 */
	protected abstract String[] createUser(String user, String table);

	/**
	 * Returns the statements that drop the user again.
	 * @param user the user's name
	 * @param table the allocation table
	 * @return the statements
	 */
	protected abstract String[] dropUser(String user, String table);

	@BeforeAll
	void createUserAndTables() {
		this.admin = database().dataSource(2);
		String name = ("crid_" + getClass().getSimpleName().replace("IntegrationTest", "") + "_"
				+ ProcessHandle.current().pid())
			.toLowerCase();
		this.user = name + "_u";
		this.table = name;
		JdbcTemplateRegistry.builder(new JdbcTemplate(this.admin)).tableName(this.table).build().ensureSchema();
		new JdbcTemplate(this.admin).batchUpdate(createUser(this.user, this.table));
	}

	@AfterAll
	void dropUserAndTables() {
		if (this.admin != null) {
			try {
				new JdbcTemplate(this.admin).batchUpdate(dropUser(this.user, this.table));
			}
			finally {
				TestDatabase.dropRegistryTables(this.admin, this.table);
				this.admin.close();
			}
		}
	}

	@Test
	void aRefusedPrivilegeIsNotRetryableAndANodeThrowsItAtOnce() {
		try (HikariDataSource withoutRights = database().dataSource(2, this.user, PASSWORD)) {
			JdbcTemplateRegistry registry = JdbcTemplateRegistry.builder(new JdbcTemplate(withoutRights))
				.tableName(this.table)
				.queryTimeout(Duration.ofSeconds(5))
				.build();
			assertThatExceptionOfType(RegistryException.class).isThrownBy(() -> registry.allocate(1, 10))
				.withCauseInstanceOf(PermissionDeniedDataAccessException.class)
				.satisfies((ex) -> assertThat(ex.isRetryable()).isFalse());
			AbstractJdbcTemplateRegistryIntegrationTest.assertThrownAtOnceByANode(registry,
					PermissionDeniedDataAccessException.class);
		}
	}

}
