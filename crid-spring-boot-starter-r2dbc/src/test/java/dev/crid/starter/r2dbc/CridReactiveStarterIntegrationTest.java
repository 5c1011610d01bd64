package dev.crid.starter.r2dbc;

import javax.sql.DataSource;

import dev.crid.CridNode;
import dev.crid.Registry;
import dev.crid.r2dbc.R2dbcRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import org.springframework.r2dbc.core.DatabaseClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A reactive application with this starter, crid-spring-data and Boot's Spring Data R2DBC
 * starter, on H2 through R2DBC: it has no JDBC at all (neither crid-jdbc nor spring-jdbc
 * is on its classpath), and its aggregates get their IDs from the node, whose registry is
 * on the application's R2DBC {@code ConnectionFactory}.
 */
@SpringBootTest(classes = CridReactiveStarterIntegrationTest.ReactiveApplication.class,
		properties = "spring.r2dbc.url=r2dbc:h2:mem:///crid-reactive-starter?options=DB_CLOSE_DELAY=-1")
class CridReactiveStarterIntegrationTest {

	@Autowired
	private OrderRepository orders;

	@Autowired
	private DatabaseClient database;

	@Autowired
	private Registry registry;

	@Autowired
	private CridNode node;

	@Autowired
	private ApplicationContext context;

	@Test
	void bringsNoJdbcRegistryAndNoDataSource() {
		// Spring Data R2DBC brings spring-jdbc itself; crid brings no JDBC of its own,
		// and
		// nothing here brings Spring Boot's JDBC auto-configuration or a pool.
		for (String name : new String[] { "dev.crid.jdbc.JdbcTemplateRegistry",
				"org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
				"com.zaxxer.hikari.HikariDataSource" }) {
			assertThatExceptionOfType(ClassNotFoundException.class).as(name)
				.isThrownBy(() -> Class.forName(name, false, getClass().getClassLoader()));
		}
		assertThat(this.context.getBeanNamesForType(DataSource.class)).isEmpty();
	}

	@Test
	void givesAggregatesIdsFromTheRegistryOnTheConnectionFactory() {
		assertThat(this.registry).isInstanceOf(R2dbcRegistry.class);
		assertThat(this.registry.kind()).isEqualTo("r2dbc");
		this.database
			.sql("CREATE TABLE IF NOT EXISTS \"crid_starter_orders\" (id BIGINT PRIMARY KEY, customer VARCHAR(100))")
			.then()
			.block();
		Order saved = this.orders.save(new Order(null, "Ada")).block();
		assertThat(saved).isNotNull();
		assertThat(saved.id()).isPositive();
		assertThat(this.node.parser().parse(saved.id()).timestamp()).isNotNull();
		assertThat(this.orders.findById(saved.id()).block()).isEqualTo(saved);
	}

	@SpringBootApplication
	static class ReactiveApplication {

	}

}
