package dev.crid.jdbc;

import java.sql.SQLException;
import java.time.Duration;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.crid.testsupport.AbstractRegistryFaultTest;
import dev.crid.testsupport.FaultProxy;
import dev.crid.testsupport.TestDatabase;

/**
 * The outages of {@link AbstractRegistryFaultTest} for the JDBC registry, on a HikariCP
 * pool set up as the README recommends (a 2 s connection timeout, a 1 s validation
 * timeout, a 2 s query timeout); a pool's soft eviction drops its connections.
 */
abstract class AbstractJdbcFaultIntegrationTest extends AbstractRegistryFaultTest {

	private static final int POOL_SIZE = 4;

	private HikariDataSource admin;

	@BeforeAll
	void createTable() {
		this.admin = database().dataSource(2);
		JdbcTemplateRegistry.builder(new JdbcTemplate(this.admin)).tableName(tableName()).build().ensureSchema();
	}

	@AfterAll
	void dropTable() {
		if (this.admin != null) {
			TestDatabase.dropRegistryTables(this.admin, tableName());
			this.admin.close();
		}
	}

	@Override
	protected Route route(FaultProxy proxy) {
		TestDatabase.Endpoint endpoint = database().endpoint();
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(proxy.jdbcUrl());
		config.setUsername(endpoint.username());
		config.setPassword(endpoint.password());
		config.setMaximumPoolSize(POOL_SIZE);
		config.setConnectionTimeout(TestDatabase.POOL_CONNECTION_TIMEOUT.toMillis());
		config.setValidationTimeout(Duration.ofSeconds(1).toMillis());
		config.setPoolName("crid-fault-test");
		HikariDataSource pool = new HikariDataSource(config);
		JdbcTemplateRegistry registry = JdbcTemplateRegistry.builder(new JdbcTemplate(pool))
			.tableName(tableName())
			.queryTimeout(Duration.ofSeconds(2))
			.build();
		return Route.of(registry, () -> pool.getHikariPoolMXBean().softEvictConnections(), pool::close);
	}

	@Override
	protected Class<? extends Throwable> driverFailure() {
		return SQLException.class;
	}

}
