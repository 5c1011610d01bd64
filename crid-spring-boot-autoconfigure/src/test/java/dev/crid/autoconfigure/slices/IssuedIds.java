package dev.crid.autoconfigure.slices;

import java.time.Instant;

import dev.crid.CridNode;
import dev.crid.Registry;
import dev.crid.jdbc.JdbcDialect;
import dev.crid.jdbc.JdbcTemplateRegistry;
import dev.crid.r2dbc.R2dbcRegistry;

import org.springframework.context.ApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.r2dbc.core.DatabaseClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What every data slice test checks about an ID it was given: it came from the slice's
 * node, whose registry is the database registry on the slice's own DataSource (or
 * ConnectionFactory), and that registry reserved the ID's block in its table there.
 */
public final class IssuedIds {

	private IssuedIds() {
	}

	/**
	 * Checks that the ID was issued by the slice's node from a block reserved in the
	 * database registry.
	 * @param id the ID to check
	 * @param slice the slice's application context
	 * @param dialect the database the slice runs on
	 */
	public static void assertIssuedThroughTheDatabaseRegistry(long id, ApplicationContext slice, JdbcDialect dialect) {
		CridNode node = slice.getBean(CridNode.class);
		assertThat(node.parser().parse(id).timestamp()).isBetween(Instant.now().minusSeconds(60), Instant.now());
		Registry registry = slice.getBean(Registry.class);
		assertThat(registry).isInstanceOf(JdbcTemplateRegistry.class);
		JdbcTemplateRegistry database = (JdbcTemplateRegistry) registry;
		assertThat(database.dialect()).isEqualTo(dialect);
		long second = id >>> node.layout().sequenceBits();
		Long reserved = slice.getBean(JdbcTemplate.class)
			.queryForObject("SELECT next_seq FROM " + database.tableName() + " WHERE ts = ?", Long.class, second);
		assertThat(reserved).as("numbers reserved for second %d in %s", second, database.tableName())
			.isGreaterThan(id & node.layout().maxSequence());
	}

	/**
	 * Checks that the ID was issued by the slice's node from a block reserved in the
	 * registry on the slice's R2DBC {@code ConnectionFactory}.
	 * @param id the ID to check
	 * @param slice the slice's application context
	 * @param dialect the statements the registry runs there, as its details name them
	 */
	public static void assertIssuedThroughTheR2dbcRegistry(long id, ApplicationContext slice, String dialect) {
		CridNode node = slice.getBean(CridNode.class);
		assertThat(node.parser().parse(id).timestamp()).isBetween(Instant.now().minusSeconds(60), Instant.now());
		Registry registry = slice.getBean(Registry.class);
		assertThat(registry).isInstanceOf(R2dbcRegistry.class);
		R2dbcRegistry database = (R2dbcRegistry) registry;
		assertThat(database.details()).containsEntry("dialect", dialect);
		long second = id >>> node.layout().sequenceBits();
		Long reserved = slice.getBean(DatabaseClient.class)
			.sql("SELECT next_seq FROM " + database.tableName() + " WHERE ts = :ts")
			.bind("ts", second)
			.map((row) -> row.get(0, Long.class))
			.one()
			.block();
		assertThat(reserved).as("numbers reserved for second %d in %s", second, database.tableName())
			.isGreaterThan(id & node.layout().maxSequence());
	}

}
