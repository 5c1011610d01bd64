package dev.crid.autoconfigure;

import java.sql.Connection;
import java.sql.ResultSet;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import dev.crid.autoconfigure.registry.CridRegistryAutoConfiguration;
import dev.crid.CridNode;
import dev.crid.jdbc.JdbcDialect;
import dev.crid.jdbc.JdbcTemplateRegistry;
import dev.crid.testsupport.TestDatabase;
import dev.crid.autoconfigure.health.CridHealthContributorAutoConfiguration;
import dev.crid.actuate.health.CridHealthIndicator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabase;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseBuilder;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseType;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An application with two real DataSources, H2 and PostgreSQL: {@link CridDataSource}
 * picks the one that holds the registry table, which crid creates and uses there and
 * nowhere else, whichever DataSource is the application's {@code @Primary}.
 */
class CridDataSourceIntegrationTest {

	private static final String TABLE = "crid_boot_ds_" + Long.toHexString(System.nanoTime() & 0xffffff);

	private static HikariDataSource admin;

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(CridRegistryAutoConfiguration.class, CridAutoConfiguration.class,
				CridHealthContributorAutoConfiguration.class))
		.withPropertyValues("crid.registry.jdbc.initialize-schema=always", "crid.registry.jdbc.table-name=" + TABLE);

	@BeforeAll
	static void connect() {
		admin = TestDatabase.POSTGRESQL.dataSource(1);
	}

	@AfterAll
	static void dropTable() {
		if (admin != null) {
			dropRegistryTables();
			admin.close();
		}
	}

	/** The allocation table and the registry's metadata table beside it. */
	private static void dropRegistryTables() {
		new JdbcTemplate(admin).execute("DROP TABLE IF EXISTS " + TABLE);
		new JdbcTemplate(admin).execute("DROP TABLE IF EXISTS " + TABLE + "_meta");
	}

	@Test
	void keepsTheRegistryInTheQualifiedPostgreSqlBesideAPrimaryH2() {
		this.runner.withUserConfiguration(PostgreSqlForCrid.class).run((context) -> {
			long id = context.getBean(CridNode.class).nextId();
			assertRegistryIn(context, JdbcDialect.POSTGRESQL, id);
			assertThat(tableIn(context.getBean("postgreSql", DataSource.class))).isTrue();
			assertThat(tableIn(context.getBean("h2", DataSource.class))).isFalse();
		});
		dropRegistryTables();
	}

	@Test
	void keepsTheRegistryInTheQualifiedH2BesideAPrimaryPostgreSql() {
		this.runner.withUserConfiguration(H2ForCrid.class).run((context) -> {
			long id = context.getBean(CridNode.class).nextId();
			assertRegistryIn(context, JdbcDialect.H2, id);
			assertThat(tableIn(context.getBean("h2", DataSource.class))).isTrue();
			assertThat(tableIn(context.getBean("postgreSql", DataSource.class))).isFalse();
		});
	}

	@Test
	void usesTheQualifiedDataSourceWhenNoneIsPrimary() {
		this.runner.withUserConfiguration(H2ForCridNoPrimary.class).run((context) -> {
			assertThat(context).hasNotFailed();
			assertRegistryIn(context, JdbcDialect.H2, context.getBean(CridNode.class).nextId());
			assertThat(tableIn(context.getBean("postgreSql", DataSource.class))).isFalse();
		});
	}

	private static void assertRegistryIn(AssertableApplicationContext context, JdbcDialect dialect, long id) {
		assertThat(context.getBean(JdbcTemplateRegistry.class).dialect()).isEqualTo(dialect);
		assertThat(context.getBean(CridHealthIndicator.class).health().getStatus()).isEqualTo(Status.UP);
		CridNode node = context.getBean(CridNode.class);
		DataSource qualified = context.getBean((dialect == JdbcDialect.H2) ? "h2" : "postgreSql", DataSource.class);
		Long reserved = new JdbcTemplate(qualified).queryForObject("SELECT next_seq FROM " + TABLE + " WHERE ts = ?",
				Long.class, id >>> node.layout().sequenceBits());
		assertThat(reserved).isGreaterThan(id & node.layout().maxSequence());
	}

	private static boolean tableIn(DataSource dataSource) {
		return new JdbcTemplate(dataSource).execute((Connection connection) -> {
			for (String name : new String[] { TABLE, TABLE.toUpperCase() }) {
				try (ResultSet tables = connection.getMetaData().getTables(null, null, name, null)) {
					if (tables.next()) {
						return true;
					}
				}
			}
			return false;
		});
	}

	private static EmbeddedDatabase h2() {
		return new EmbeddedDatabaseBuilder().setType(EmbeddedDatabaseType.H2).generateUniqueName(true).build();
	}

	@Configuration(proxyBeanMethods = false)
	static class PostgreSqlForCrid {

		@Bean(destroyMethod = "shutdown")
		@Primary
		EmbeddedDatabase h2() {
			return CridDataSourceIntegrationTest.h2();
		}

		@Bean
		@CridDataSource
		HikariDataSource postgreSql() {
			return TestDatabase.POSTGRESQL.dataSource(2);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class H2ForCrid {

		@Bean(destroyMethod = "shutdown")
		@CridDataSource
		EmbeddedDatabase h2() {
			return CridDataSourceIntegrationTest.h2();
		}

		@Bean
		@Primary
		HikariDataSource postgreSql() {
			return TestDatabase.POSTGRESQL.dataSource(2);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class H2ForCridNoPrimary {

		@Bean(destroyMethod = "shutdown")
		@CridDataSource
		EmbeddedDatabase h2() {
			return CridDataSourceIntegrationTest.h2();
		}

		@Bean
		HikariDataSource postgreSql() {
			return TestDatabase.POSTGRESQL.dataSource(2);
		}

	}

}
