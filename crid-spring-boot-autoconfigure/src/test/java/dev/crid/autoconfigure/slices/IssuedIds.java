package dev.crid.autoconfigure.slices;

import java.time.Instant;

import dev.crid.CridNode;
import dev.crid.Registry;
import dev.crid.jdbc.JdbcDialect;
import dev.crid.jdbc.JdbcTemplateRegistry;

import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What every data slice test checks about an ID it was given: it came from the slice's node, whose
 * registry is the database registry on the slice's own DataSource, and that registry reserved the ID's
 * block in its table there.
 */
public final class IssuedIds {

	private IssuedIds() {
	}

	/**
	 * Checks that the ID was issued by the node from a block reserved in the database registry.
	 * @param id the ID to check
	 * @param node the slice's node
	 * @param registry the slice's registry bean
	 * @param jdbc a template on the slice's DataSource
	 * @param dialect the database the slice runs on
	 */
	public static void assertIssuedThroughTheDatabaseRegistry(long id, CridNode node, Registry registry,
			JdbcTemplate jdbc, JdbcDialect dialect) {
		assertThat(node.parser().parse(id).timestamp()).isBetween(Instant.now().minusSeconds(60), Instant.now());
		assertThat(registry).isInstanceOf(JdbcTemplateRegistry.class);
		JdbcTemplateRegistry database = (JdbcTemplateRegistry) registry;
		assertThat(database.dialect()).isEqualTo(dialect);
		long second = id >>> node.layout().sequenceBits();
		Long reserved = jdbc.queryForObject("SELECT next_seq FROM " + database.tableName() + " WHERE ts = ?",
				Long.class, second);
		assertThat(reserved).as("numbers reserved for second %d in %s", second, database.tableName())
			.isGreaterThan(id & node.layout().maxSequence());
	}

}
