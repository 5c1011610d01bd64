package dev.crid.autoconfigure;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import dev.crid.CridLayout;
import dev.crid.LayoutMismatchException;

import org.jspecify.annotations.Nullable;

/**
 * Describes a node that its registry refused for another layout: two layouts on one
 * registry could make the same ID. Names the node, and the configured nodes on the same
 * table with the registry's layout.
 */
final class LayoutMismatch {

	private LayoutMismatch() {
	}

	/**
	 * Returns the failure.
	 * @param ex what the registry threw
	 * @param name the refused node's name
	 * @param properties the default node's properties
	 * @param namedNodes the named nodes' properties
	 */
	static CridConfigurationException of(LayoutMismatchException ex, String name, CridProperties properties,
			NamedNodes namedNodes) {
		CridLayout registry = ex.registryLayout();
		String prefix = CridNodes.DEFAULT_NODE.equals(name) ? "crid." : "crid.nodes." + name + ".";
		NodeProperties refused = of(name, properties, namedNodes);
		String table = (refused != null) ? table(refused) : null;
		List<String> others = new ArrayList<>();
		Stream.concat(Stream.of(CridNodes.DEFAULT_NODE), namedNodes.names().stream())
			.filter((other) -> !other.equals(name))
			.forEach((other) -> {
				NodeProperties node = of(other, properties, namedNodes);
				if (node != null && table(node).equals(table) && registry.equals(layout(node))) {
					others.add(describe(other));
				}
			});
		String usedBy = others.isEmpty() ? "another application or an earlier configuration"
				: String.join(" and ", others);
		// The table is named only where configured nodes share it: a registry bean of the
		// application's own may have none.
		boolean etcd = refused != null && onEtcd(refused);
		String registryName = others.isEmpty() ? "The crid registry"
				: (etcd ? "The crid etcd registry under the key prefix '" : "The crid registry table '") + table + "'";
		String nodeName = describe(name);
		return new CridConfigurationException(
				registryName + " is used by " + usedBy + " with another layout than that of " + nodeName
						+ ", and IDs of the two could collide:\n\n" + "    Registry: " + describe(registry) + "\n    "
						+ Character.toUpperCase(nodeName.charAt(0)) + nodeName.substring(1) + ": "
						+ describe(ex.nodeLayout()) + "\n",
				"Give every node that shares the table the same layout: set " + prefix + "epoch=" + registry.epoch()
						+ ", " + prefix + "timestamp-bits=" + registry.timestampBits() + " and " + prefix
						+ "sequence-bits=" + registry.sequenceBits() + ", or give " + nodeName
						+ (etcd ? " a key prefix of its own (" + prefix + "registry.etcd.key-prefix)."
								: " a table of its own (" + prefix + "registry.jdbc.table-name)."),
				ex);
	}

	private static String describe(String name) {
		return CridNodes.DEFAULT_NODE.equals(name) ? "the default node (crid.*)"
				: "the node '" + name + "' (crid.nodes." + name + ".*)";
	}

	private static String describe(CridLayout layout) {
		return "epoch " + layout.epoch() + ", " + layout.timestampBits() + " timestamp bits, " + layout.sequenceBits()
				+ " sequence bits";
	}

	private static @Nullable NodeProperties of(String name, CridProperties properties, NamedNodes namedNodes) {
		return CridNodes.DEFAULT_NODE.equals(name) ? properties : namedNodes.get(name);
	}

	private static String table(NodeProperties node) {
		if (onEtcd(node)) {
			return node.getRegistry().getEtcd().getKeyPrefix();
		}
		return (node.getRegistry().getType() == RegistryType.R2DBC) ? node.getRegistry().getR2dbc().getTableName()
				: node.getRegistry().getJdbc().getTableName();
	}

	/** Whether the node reserves in etcd: asked for, or chosen by its endpoints. */
	private static boolean onEtcd(NodeProperties node) {
		RegistryType type = node.getRegistry().getType();
		return type == RegistryType.ETCD
				|| (type == RegistryType.AUTO && !node.getRegistry().getEtcd().getEndpoints().isEmpty());
	}

	private static CridLayout layout(NodeProperties node) {
		try {
			return CridLayout.of(node.getEpoch(), node.getTimestampBits(), node.getSequenceBits());
		}
		catch (RuntimeException invalid) {
			return CridLayout.DEFAULT;
		}
	}

}
