package dev.crid.hibernate;

import java.util.concurrent.ThreadLocalRandom;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.crid.testsupport.TestDatabase;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * {@code @Crid} with plain Hibernate on PostgreSQL, in a schema of this run's own (tables
 * {@code crid_hib_*}: builds on the same database may run at the same time), created and
 * dropped by the test.
 */
class PostgreSqlCridHibernateIntegrationTest extends AbstractCridHibernateIntegrationTest {

	private final String schema = "crid_hib_" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 16);

	private boolean schemaCreated;

	@Override
	protected DataSource createDataSource(int poolSize) {
		if (!this.schemaCreated) {
			execute("CREATE SCHEMA " + this.schema);
			this.schemaCreated = true;
		}
		TestDatabase.Endpoint endpoint = TestDatabase.POSTGRESQL.endpoint();
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(endpoint.url());
		config.setUsername(endpoint.username());
		config.setPassword(endpoint.password());
		config.setSchema(this.schema);
		config.setMaximumPoolSize(poolSize);
		config.setConnectionTimeout(TestDatabase.POOL_CONNECTION_TIMEOUT.toMillis());
		return new HikariDataSource(config);
	}

	@Override
	protected void dropDatabase() {
		if (this.schemaCreated) {
			execute("DROP SCHEMA IF EXISTS " + this.schema + " CASCADE");
		}
	}

	private static void execute(String sql) {
		try (HikariDataSource admin = TestDatabase.POSTGRESQL.dataSource(1)) {
			new JdbcTemplate(admin).execute(sql);
		}
	}

}
