package dev.crid.autoconfigure.slices.jdbc;

import dev.crid.jdbc.JdbcDialect;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.jdbc.test.autoconfigure.JdbcTest;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Import;

import static dev.crid.autoconfigure.slices.IssuedIds.assertIssuedThroughTheDatabaseRegistry;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code @JdbcTest} brings crid's node and its database registry, so a JDBC repository
 * that takes IDs from the node works in the slice; here on the slice's embedded database.
 */
// Flyway is on this module's test classpath for other tests; the slices here need no
// migrations.
@JdbcTest(properties = "spring.flyway.enabled=false")
@Import(Notes.class)
class JdbcSliceTest {

	@Autowired
	private Notes notes;

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
	void storesARowUnderAnIdFromTheNode() {
		this.notes.createTable();
		long id = this.notes.add("first");
		assertThat(this.notes.find(id)).isEqualTo("first");
		assertIssuedThroughTheDatabaseRegistry(id, this.context, expectedDialect());
	}

}
