package dev.crid.autoconfigure.slices.datar2dbc;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.data.r2dbc.test.autoconfigure.DataR2dbcTest;
import org.springframework.context.ApplicationContext;
import org.springframework.r2dbc.core.DatabaseClient;

import static dev.crid.autoconfigure.slices.IssuedIds.assertIssuedThroughTheR2dbcRegistry;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code @DataR2dbcTest} brings crid's node, its registry on the slice's
 * {@code ConnectionFactory} and the callback that gives {@code @Crid} aggregates their
 * IDs, as an application's test is written: the slice annotation and nothing for crid.
 * Here on the embedded database Spring Boot gives the slice.
 */
@DataR2dbcTest
class DataR2dbcSliceTest {

	@Autowired
	private ParcelRepository parcels;

	@Autowired
	private ApplicationContext context;

	@Autowired
	private DatabaseClient database;

	/**
	 * Returns the database the slice runs on.
	 * @return the registry's dialect there, as its health shows it
	 */
	String expectedDialect() {
		return "h2";
	}

	@BeforeEach
	void createTable() {
		// Quoted as Spring Data R2DBC quotes the name given in @Table.
		this.database
			.sql("CREATE TABLE IF NOT EXISTS \"" + Parcel.TABLE + "\" (id BIGINT PRIMARY KEY, recipient VARCHAR(100))")
			.then()
			.block();
	}

	@Test
	void savesAnAggregateWithACridIdItWasGivenByTheNode() {
		Parcel saved = this.parcels.save(new Parcel(null, "Ada")).block();
		assertThat(saved).isNotNull();
		assertThat(saved.id()).isNotNull();
		assertThat(this.parcels.findById(saved.id()).block()).isEqualTo(saved);
		assertIssuedThroughTheR2dbcRegistry(saved.id(), this.context, expectedDialect());
	}

}
