package dev.crid.autoconfigure;

import java.util.Map;

import dev.crid.Registry;
import dev.crid.jdbc.JdbcTemplateRegistry;

/**
 * Describes and checks a {@link JdbcTemplateRegistry}: its dialect and table, and whether the table can be
 * read ({@link JdbcTemplateRegistry#verifySchema()}, which never reserves a block).
 */
final class JdbcRegistryInspector extends RegistryInspector {

	private final JdbcTemplateRegistry registry;

	JdbcRegistryInspector(Registry registry) {
		super(registry);
		this.registry = (JdbcTemplateRegistry) registry;
	}

	static boolean supports(Registry registry) {
		return registry instanceof JdbcTemplateRegistry;
	}

	@Override
	Map<String, Object> describe() {
		Map<String, Object> description = super.describe();
		description.put("kind", "jdbc");
		description.put("table", this.registry.tableName());
		try {
			description.put("dialect", this.registry.dialect().name().toLowerCase());
		}
		catch (RuntimeException ex) {
			description.put("dialect", "unknown (" + ex.getMessage() + ")");
		}
		return description;
	}

	@Override
	boolean check() {
		this.registry.verifySchema();
		return true;
	}

}
