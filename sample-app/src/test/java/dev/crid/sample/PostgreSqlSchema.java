package dev.crid.sample;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

import com.zaxxer.hikari.HikariDataSource;
import dev.crid.testsupport.TestDatabase;

import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A schema of its own on the shared test PostgreSQL, so that these tests' tables (crid's
 * registry table among them) never meet another test's; dropped with everything in it on
 * {@link #close()}.
 */
final class PostgreSqlSchema implements AutoCloseable {

	private final HikariDataSource dataSource;

	private final String name;

	private final TestDatabase.Endpoint endpoint;

	private PostgreSqlSchema(HikariDataSource dataSource, TestDatabase.Endpoint endpoint, String name) {
		this.dataSource = dataSource;
		this.endpoint = endpoint;
		this.name = name;
	}

	static PostgreSqlSchema create() {
		TestDatabase.Endpoint endpoint = TestDatabase.POSTGRESQL.endpoint();
		String name = "crid_sample_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
		HikariDataSource dataSource = TestDatabase.POSTGRESQL.dataSource(2);
		execute(dataSource, "CREATE SCHEMA " + name);
		return new PostgreSqlSchema(dataSource, endpoint, name);
	}

	String name() {
		return this.name;
	}

	JdbcTemplate jdbc() {
		return new JdbcTemplate(this.dataSource);
	}

	/**
	 * Returns the settings that run the sample application's {@code postgres} profile in
	 * this schema.
	 */
	Map<String, Object> applicationProperties() {
		String url = this.endpoint.url();
		Map<String, Object> properties = new HashMap<>();
		properties.put("spring.profiles.active", "postgres");
		properties.put("spring.datasource.url", url + (url.contains("?") ? "&" : "?") + "currentSchema=" + this.name);
		properties.put("spring.datasource.username", this.endpoint.username());
		properties.put("spring.datasource.password", this.endpoint.password());
		properties.put("spring.jpa.properties.hibernate.default_schema", this.name);
		properties.put("crid.registry.jdbc.table-name", this.name + ".crid_allocations");
		return properties;
	}

	@Override
	public void close() {
		try {
			execute(this.dataSource, "DROP SCHEMA " + this.name + " CASCADE");
		}
		finally {
			this.dataSource.close();
		}
	}

	private static void execute(HikariDataSource dataSource, String sql) {
		try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
			statement.execute(sql);
		}
		catch (SQLException ex) {
			throw new IllegalStateException(sql + ": " + ex.getMessage(), ex);
		}
	}

}
