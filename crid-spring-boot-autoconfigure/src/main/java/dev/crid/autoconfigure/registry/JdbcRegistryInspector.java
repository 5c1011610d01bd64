package dev.crid.autoconfigure.registry;

import java.util.Locale;
import java.util.Map;

import dev.crid.Registry;
import dev.crid.jdbc.JdbcTemplateRegistry;
import dev.crid.jdbc.MissingTableException;

/**
 * Describes and checks a {@link JdbcTemplateRegistry}: its dialect and table, and whether
 * the table can be read ({@link JdbcTemplateRegistry#verifySchema()}, which never
 * reserves a block).
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
	public Map<String, Object> describe(boolean reachable) {
		Map<String, Object> description = super.describe(reachable);
		description.put("kind", "jdbc");
		description.put("table", this.registry.tableName());
		if (!reachable) {
			description.put("dialect", "unknown");
			return description;
		}
		try {
			description.put("dialect", this.registry.dialect().name().toLowerCase(Locale.ROOT));
		}
		catch (RuntimeException ex) {
			description.put("dialect", "unknown (" + ex.getMessage() + ")");
		}
		return description;
	}

	@Override
	public boolean answered(RuntimeException failure) {
		return failure instanceof MissingTableException;
	}

	@Override
	public boolean check() {
		this.registry.verifySchema();
		return true;
	}

}
