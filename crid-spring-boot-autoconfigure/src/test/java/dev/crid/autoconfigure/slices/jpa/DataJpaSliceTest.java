package dev.crid.autoconfigure.slices.jpa;

import dev.crid.jdbc.JdbcDialect;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.data.jpa.test.autoconfigure.DataJpaTest;
import org.springframework.context.ApplicationContext;

import static dev.crid.autoconfigure.slices.IssuedIds.assertIssuedThroughTheDatabaseRegistry;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code @DataJpaTest} brings crid's node, its database registry and the Hibernate
 * wiring, so an entity with {@code @Id @Crid} can be saved; here on the slice's embedded
 * database.
 */
// Flyway is on this module's test classpath for other tests; the slices here need no
// migrations.
@DataJpaTest(properties = "spring.flyway.enabled=false")
class DataJpaSliceTest {

	@Autowired
	private InvoiceRepository invoices;

	@Autowired
	private ApplicationContext context;

	/**
	 * Returns the database the slice runs on.
	 * @return the registry's dialect there
	 */
	JdbcDialect expectedDialect() {
		return JdbcDialect.H2;
	}

	@Test
	void savesAnEntityWithACridId() {
		Invoice saved = this.invoices.saveAndFlush(new Invoice("Ada"));
		assertThat(saved.getId()).isNotNull();
		assertThat(this.invoices.findById(saved.getId())).get().extracting(Invoice::getCustomer).isEqualTo("Ada");
		assertIssuedThroughTheDatabaseRegistry(saved.getId(), this.context, expectedDialect());
	}

}
