package dev.crid.autoconfigure.registry;

import java.util.LinkedHashMap;
import java.util.Map;

import dev.crid.InMemoryRegistry;
import dev.crid.Registry;

import org.jspecify.annotations.Nullable;
import org.springframework.util.ClassUtils;

/**
 * Describes a registry and checks that it can serve, without ever reserving a block: what
 * the health indicator and the endpoint show of it. The database registry's support lives
 * in a subclass, touched only when crid-jdbc is present.
 */
public class RegistryInspector {

	private static final boolean JDBC_PRESENT = ClassUtils.isPresent("dev.crid.jdbc.JdbcTemplateRegistry",
			RegistryInspector.class.getClassLoader());

	private final @Nullable Registry registry;

	RegistryInspector(@Nullable Registry registry) {
		this.registry = registry;
	}

	/**
	 * Returns the inspector that knows the most about the given registry.
	 * @param registry the registry, or {@code null} when there is no single
	 * {@code Registry} bean
	 * @return the inspector
	 */
	public static RegistryInspector of(@Nullable Registry registry) {
		if (JDBC_PRESENT && registry != null && JdbcRegistryInspector.supports(registry)) {
			return new JdbcRegistryInspector(registry);
		}
		return new RegistryInspector(registry);
	}

	/**
	 * Returns what kind of registry this is and, for a database, where it keeps its
	 * blocks. Never throws.
	 * @param reachable whether the registry is known to answer; if not, nothing is asked
	 * of it
	 * @return the description, in display order
	 */
	public Map<String, Object> describe(boolean reachable) {
		Map<String, Object> description = new LinkedHashMap<>();
		description.put("kind", kind());
		return description;
	}

	private String kind() {
		if (this.registry == null) {
			return "unknown";
		}
		if (this.registry instanceof InMemoryRegistry) {
			return "in-memory";
		}
		return this.registry.getClass().getName();
	}

	/**
	 * Checks that the registry can serve blocks, as far as it can be told without
	 * reserving one.
	 * @return {@code true} if the check was made, {@code false} if this kind of registry
	 * cannot be checked
	 * @throws RuntimeException describing why the registry cannot serve
	 */
	public boolean check() {
		return this.registry instanceof InMemoryRegistry;
	}

	/**
	 * Returns whether a failed {@link #check()} still got an answer from the registry.
	 * @param failure what the check threw
	 * @return {@code true} if the registry answered, for example that its table is
	 * missing
	 */
	public boolean answered(RuntimeException failure) {
		return false;
	}

}
