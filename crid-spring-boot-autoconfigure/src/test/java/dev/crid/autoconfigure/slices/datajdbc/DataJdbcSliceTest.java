package dev.crid.autoconfigure.slices.datajdbc;

import dev.crid.jdbc.JdbcDialect;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.data.jdbc.test.autoconfigure.DataJdbcTest;
import org.springframework.context.ApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

import static dev.crid.autoconfigure.slices.IssuedIds.assertIssuedThroughTheDatabaseRegistry;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code @DataJdbcTest} brings crid's node, its database registry and the callback that
 * gives {@code @Crid} aggregates their IDs, as an application's test is written: the
 * slice annotation and nothing for crid. Here on the slice's embedded database.
 */
// Flyway is on this module's test classpath for other tests; the slices here need no
// migrations.
@DataJdbcTest(properties = "spring.flyway.enabled=false")
class DataJdbcSliceTest {

	@Autowired
	private ShipmentRepository shipments;

	@Autowired
	private ApplicationContext context;

	@Autowired
	private JdbcTemplate jdbc;

	/**
	 * Returns the database the slice runs on.
	 * @return the registry's dialect there
	 */
	JdbcDialect expectedDialect() {
		return JdbcDialect.H2;
	}

	@BeforeEach
	void createTable() {
		// Quoted as Spring Data JDBC quotes the name given in @Table.
		this.jdbc.execute("CREATE TABLE IF NOT EXISTS \"" + Shipment.TABLE
				+ "\" (id BIGINT PRIMARY KEY, destination VARCHAR(100))");
	}

	@Test
	void savesAnAggregateWithACridIdItWasGivenByTheNode() {
		Shipment saved = this.shipments.save(new Shipment(null, "Lisbon"));
		assertThat(saved.id()).isNotNull();
		assertThat(this.shipments.findById(saved.id())).contains(saved);
		assertIssuedThroughTheDatabaseRegistry(saved.id(), this.context, expectedDialect());
	}

}
