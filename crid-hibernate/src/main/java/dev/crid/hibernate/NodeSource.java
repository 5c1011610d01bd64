package dev.crid.hibernate;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import dev.crid.CridNode;
import org.hibernate.HibernateException;
import org.jspecify.annotations.Nullable;

/**
 * The nodes one {@code SessionFactory}'s settings offer, by name: the default node under
 * {@link CridIdentifierGenerator#NODE_SETTING} (or, when that is not set, under the key
 * {@value #DEFAULT} of the map in {@link CridIdentifierGenerator#NODES_SETTING}), and the
 * named nodes in that map. Each entry is resolved once, when the first generator asks for
 * it: a {@link Supplier} is asked then and never again, however many entities take their
 * IDs from its node. Shared by every generator of the factory (handed out by
 * {@link CridGeneratorCheck}); thread-safe.
 */
final class NodeSource {

	/** The name of the default node, which the empty name also means. */
	static final String DEFAULT = "default";

	private final @Nullable Object defaultNode;

	/**
	 * What the settings hold under {@link CridIdentifierGenerator#NODES_SETTING}, checked
	 * by {@link #problem}.
	 */
	private final @Nullable Object nodes;

	private final Map<String, Slot> slots = new ConcurrentHashMap<>();

	NodeSource(Map<String, Object> settings) {
		this.defaultNode = settings.get(CridIdentifierGenerator.NODE_SETTING);
		this.nodes = settings.get(CridIdentifierGenerator.NODES_SETTING);
	}

	/**
	 * Returns the node name {@code @Crid} gives, with the empty name spelled
	 * {@value #DEFAULT}.
	 */
	static String nameOf(Crid crid) {
		String name = crid.value();
		return name.isEmpty() ? DEFAULT : name;
	}

	/**
	 * Returns why the settings can never offer the named node, for the start-up check, or
	 * {@code null} when they may. The default node is not required at start-up: a
	 * {@code SessionFactory} may be built where no node exists (ahead-of-time
	 * processing), and its first insert says what is missing.
	 * @param name the node's name, as {@link #nameOf} gives it
	 * @param identifier the identifier that takes its IDs from the node, described for
	 * the message
	 */
	@Nullable String problem(String name, String identifier) {
		if (this.nodes != null && !(this.nodes instanceof Map)) {
			return identifier + " takes crid IDs from node \"" + name + "\", but the Hibernate setting \""
					+ CridIdentifierGenerator.NODES_SETTING + "\" (CridIdentifierGenerator.NODES_SETTING) holds a "
					+ this.nodes.getClass().getName() + " instead of a java.util.Map from node name to CridNode.";
		}
		if (DEFAULT.equals(name)) {
			return null;
		}
		Map<?, ?> named = (Map<?, ?>) this.nodes;
		if (named == null) {
			return identifier + " takes crid IDs from node \"" + name + "\", but the Hibernate setting \""
					+ CridIdentifierGenerator.NODES_SETTING + "\" (CridIdentifierGenerator.NODES_SETTING) is not "
					+ "set, so only the default node is known. Put the named nodes under \""
					+ CridIdentifierGenerator.NODES_SETTING + "\": a java.util.Map from node name to a CridNode or a "
					+ "Supplier of one (with Spring Boot, define crid.nodes." + name + ".*), or use the default node.";
		}
		if (!named.containsKey(name)) {
			return identifier + " takes crid IDs from node \"" + name + "\", which is not among the nodes known: "
					+ String.join(", ", known(named)) + ". Name one of these in @Crid, or add a node named \"" + name
					+ "\" to the Hibernate setting \"" + CridIdentifierGenerator.NODES_SETTING
					+ "\" (with Spring Boot, crid.nodes." + name + ".*).";
		}
		Object value = named.get(name);
		if (!(value instanceof CridNode) && !(value instanceof Supplier)) {
			return identifier + " takes crid IDs from node \"" + name + "\", but the Hibernate setting \""
					+ CridIdentifierGenerator.NODES_SETTING + "\" holds " + describe(value) + " under \"" + name
					+ "\" instead of a CridNode or a Supplier of one.";
		}
		return null;
	}

	/** The names of the nodes there are: the map's keys and {@value #DEFAULT}, sorted. */
	private static Set<String> known(Map<?, ?> named) {
		Set<String> names = new TreeSet<>();
		names.add(DEFAULT);
		named.keySet().forEach((key) -> names.add(String.valueOf(key)));
		return names;
	}

	/**
	 * Returns the named node, resolving it (and asking its supplier) at the first call
	 * for that name.
	 * @param name the node's name, as {@link #nameOf} gives it
	 * @param identifier the identifier that asks, described for the message
	 * @throws HibernateException if the settings hold no node under the name
	 */
	CridNode node(String name, String identifier) {
		return this.slots.computeIfAbsent(name, (key) -> new Slot()).node(() -> resolve(name, identifier));
	}

	private CridNode resolve(String name, String identifier) {
		boolean isDefault = DEFAULT.equals(name);
		Object value = isDefault ? this.defaultNode : null;
		String where = isDefault ? "the Hibernate setting \"" + CridIdentifierGenerator.NODE_SETTING
				+ "\" (CridIdentifierGenerator.NODE_SETTING)" : null;
		if (value == null && this.nodes instanceof Map<?, ?> named && named.get(name) != null) {
			value = named.get(name);
			where = "the Hibernate setting \"" + CridIdentifierGenerator.NODES_SETTING
					+ "\" (CridIdentifierGenerator.NODES_SETTING) under \"" + name + "\"";
		}
		if (value == null) {
			throw new HibernateException(isDefault ? missingDefault(identifier)
					: identifier + " takes crid IDs from node \"" + name + "\", but the Hibernate setting \""
							+ CridIdentifierGenerator.NODES_SETTING + "\" (CridIdentifierGenerator.NODES_SETTING) "
							+ "holds no node under that name.");
		}
		if (value instanceof Supplier<?> supplier) {
			Object supplied = supplier.get();
			if (supplied instanceof CridNode node) {
				return node;
			}
			throw new HibernateException(identifier + " takes crid IDs from node \"" + name + "\", but the Supplier in "
					+ where + " returned " + describe(supplied) + " instead of a dev.crid.CridNode object.");
		}
		if (value instanceof CridNode node) {
			return node;
		}
		throw new HibernateException(identifier + " takes crid IDs, but " + where + " holds a "
				+ value.getClass().getName() + " instead of a dev.crid.CridNode object. With plain Hibernate, put a "
				+ "CridNode object (or a Supplier of one) there; with Spring Boot, the crid starter does it.");
	}

	private static String missingDefault(String identifier) {
		return identifier + " takes crid IDs, but the Hibernate setting \"" + CridIdentifierGenerator.NODE_SETTING
				+ "\" (CridIdentifierGenerator.NODE_SETTING) is not set, nor is key \"" + DEFAULT + "\" of \""
				+ CridIdentifierGenerator.NODES_SETTING + "\". With plain Hibernate, put a CridNode object in the "
				+ "settings under \"" + CridIdentifierGenerator.NODE_SETTING + "\" (for example "
				+ "StandardServiceRegistryBuilder.applySetting(CridIdentifierGenerator.NODE_SETTING, node), or the "
				+ "properties map given to Persistence.createEntityManagerFactory); with Spring Boot, the crid "
				+ "starter does it: add crid-spring-boot-starter and leave crid.enabled on.";
	}

	private static String describe(@Nullable Object value) {
		return (value != null) ? "a " + value.getClass().getName() : "null";
	}

	/**
	 * One name's node, resolved at most once successfully. The lock is the slot's own, so
	 * a slow supplier (a container creating the node) holds up only the entities of that
	 * node, and a failed resolution is tried again at the next insert.
	 */
	private static final class Slot {

		private volatile @Nullable CridNode node;

		CridNode node(Supplier<CridNode> resolver) {
			CridNode resolved = this.node;
			if (resolved != null) {
				return resolved;
			}
			synchronized (this) {
				resolved = this.node;
				if (resolved == null) {
					resolved = resolver.get();
					this.node = resolved;
				}
				return resolved;
			}
		}

	}

}
