package dev.crid.autoconfigure;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.BindContext;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.core.env.Environment;

/**
 * The named nodes of {@code crid.nodes.<name>.*}, in the order the configuration gives
 * them. Each one's properties are bound on top of a copy of {@code crid.*}, so a key the
 * node leaves out has the default node's value, with one exception: its registry table is
 * {@code crid_<name>_allocations} unless it names one, and its etcd key prefix the
 * default node's followed by {@code nodes/<name>/}, as nodes of different layouts cannot
 * share a table or a prefix.
 */
final class NamedNodes {

	private static final Pattern NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_]*");

	private final Map<String, NodeProperties> nodes;

	private NamedNodes(Map<String, NodeProperties> nodes) {
		this.nodes = Collections.unmodifiableMap(nodes);
	}

	/**
	 * Binds the named nodes' properties.
	 * @throws CridConfigurationException if a node's name is no identifier or is
	 * {@value CridNodes#DEFAULT_NODE}, or if a node sets another kind of registry than
	 * the default node's, or other etcd endpoints or credentials
	 */
	static NamedNodes bind(Environment environment) {
		Binder binder = Binder.get(environment);
		Map<String, NodeProperties> nodes = binder
			.bind("crid.nodes", Bindable.mapOf(String.class, NodeProperties.class), new OnTopOfCrid(binder))
			.orElseGet(LinkedHashMap::new);
		NodeProperties crid = binder.bind("crid", NodeProperties.class).orElseGet(NodeProperties::new);
		nodes.forEach((name, node) -> check(name, node, crid));
		return new NamedNodes(nodes);
	}

	private static void check(String name, NodeProperties node, NodeProperties crid) {
		RegistryType type = crid.getRegistry().getType();
		List<Violation> violations = new ArrayList<>();
		if (CridNodes.DEFAULT_NODE.equalsIgnoreCase(name)) {
			violations.add(new Violation(Setting.NODE_NAME, name,
					"must not be '" + CridNodes.DEFAULT_NODE + "', the name of the node that crid.* configures"));
		}
		else if (!NAME.matcher(name).matches()) {
			violations.add(new Violation(Setting.NODE_NAME, name,
					"must be letters, digits and underscores, starting with a letter"));
		}
		if (node.getRegistry().getType() != type) {
			violations.add(new Violation(Setting.REGISTRY_TYPE,
					node.getRegistry().getType().name().toLowerCase(Locale.ROOT),
					"must be left unset: a named node reserves in the default node's kind of registry (crid.registry.type, "
							+ type.name().toLowerCase(Locale.ROOT) + ")"));
		}
		checkEtcdClient(node.getRegistry().getEtcd(), crid.getRegistry().getEtcd(), violations);
		if (!violations.isEmpty()) {
			throw new CridConfigurationException(name, violations, null, null);
		}
	}

	/**
	 * Every node reserves through the default node's etcd client: a named node that sets
	 * other endpoints or credentials would not get them.
	 */
	private static void checkEtcdClient(RegistryProperties.Etcd node, RegistryProperties.Etcd crid,
			List<Violation> violations) {
		String rule = "must be left unset: every node reserves through the default node's etcd client "
				+ "(crid.registry.etcd.*)";
		if (!node.getEndpoints().equals(crid.getEndpoints())) {
			violations.add(new Violation(Setting.ETCD_ENDPOINTS, String.join(",", node.getEndpoints()), rule));
		}
		if (!Objects.equals(node.getUsername(), crid.getUsername())
				|| !Objects.equals(node.getPassword(), crid.getPassword())) {
			violations.add(new Violation(Setting.ETCD_CREDENTIALS,
					Objects.equals(node.getUsername(), crid.getUsername()) ? "******" : node.getUsername(), rule));
		}
	}

	/**
	 * Returns the names of the nodes, in the order the configuration gives them.
	 */
	Set<String> names() {
		return this.nodes.keySet();
	}

	/**
	 * Returns the properties of the node of the given name, or {@code null} if no named
	 * node has that name.
	 */
	@Nullable NodeProperties get(String name) {
		return this.nodes.get(name);
	}

	/**
	 * Starts each node's binding from the properties of {@code crid.*}, bound afresh, and
	 * the node's own table.
	 */
	private static final class OnTopOfCrid implements BindHandler {

		private final Binder binder;

		OnTopOfCrid(Binder binder) {
			this.binder = binder;
		}

		@Override
		public <T> Bindable<T> onStart(ConfigurationPropertyName name, Bindable<T> target, BindContext context) {
			if (context.getDepth() != 1) {
				return target;
			}
			NodeProperties node = this.binder.bind("crid", NodeProperties.class).orElseGet(NodeProperties::new);
			String table = "crid_" + name.getLastElement(ConfigurationPropertyName.Form.ORIGINAL) + "_allocations";
			node.getRegistry().getJdbc().setTableName(table);
			node.getRegistry().getR2dbc().setTableName(table);
			RegistryProperties.Etcd etcd = node.getRegistry().getEtcd();
			etcd.setKeyPrefix(etcd.getKeyPrefix() + "nodes/"
					+ name.getLastElement(ConfigurationPropertyName.Form.ORIGINAL) + "/");
			@SuppressWarnings("unchecked") // the map's values, at depth 1, are
											// NodeProperties
			Bindable<T> onTop = target.withExistingValue((T) node);
			return onTop;
		}

	}

}
