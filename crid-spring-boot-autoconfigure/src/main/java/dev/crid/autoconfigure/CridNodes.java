package dev.crid.autoconfigure;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.crid.CridNode;
import dev.crid.Registry;

import org.jspecify.annotations.Nullable;

/**
 * Every node of the application by name: the default node, configured by {@code crid.*}
 * and named {@value #DEFAULT_NODE}, and each named node of {@code crid.nodes.<name>.*}.
 * Each named node is also a {@link CridNode} bean qualified by its name, so
 * {@code @Qualifier("name") CridNode} injects it, while an unqualified {@code CridNode}
 * is the default node.
 */
public final class CridNodes {

	/** The name of the default node: {@value}. */
	public static final String DEFAULT_NODE = "default";

	private final Map<String, Supplier<CridNode>> nodes;

	private final Function<String, @Nullable Registry> registries;

	/**
	 * Creates the nodes' directory.
	 * @param nodes each node by name, the default first; a node is created at its first
	 * lookup
	 * @param registries the registry of each node by name, once the node is created
	 */
	CridNodes(Map<String, Supplier<CridNode>> nodes, Function<String, @Nullable Registry> registries) {
		this.nodes = Collections.unmodifiableMap(new LinkedHashMap<>(nodes));
		this.registries = registries;
	}

	/**
	 * Returns the node of the given name.
	 * @param name {@value #DEFAULT_NODE} or the name of a node of {@code crid.nodes}
	 * @return the node
	 * @throws IllegalArgumentException if no node has that name, naming those that exist
	 */
	public CridNode get(String name) {
		return node(name).get();
	}

	/**
	 * Returns the registry the node of the given name reserves its blocks in, as the
	 * health indicator and the endpoint describe it.
	 * @param name {@value #DEFAULT_NODE} or the name of a node of {@code crid.nodes}
	 * @return the registry, or {@code null} if it is not known (several {@code Registry}
	 * beans, say, or a named node not created yet: looking the registry up creates no
	 * node)
	 * @throws IllegalArgumentException if no node has that name, naming those that exist
	 */
	public @Nullable Registry registry(String name) {
		node(name);
		return this.registries.apply(name);
	}

	private Supplier<CridNode> node(String name) {
		Supplier<CridNode> node = this.nodes.get(name);
		if (node == null) {
			throw new IllegalArgumentException("No crid node is named '" + name + "'; the nodes are " + names()
					+ " (the default node and those of crid.nodes.<name>)");
		}
		return node;
	}

	/**
	 * Returns the names of the nodes, the default node's first, then in the order of
	 * {@code crid.nodes}.
	 * @return the names
	 */
	public Set<String> names() {
		return this.nodes.keySet();
	}

	/**
	 * Returns every node by name, creating any not created yet.
	 * @return the nodes, in the order of {@link #names()}
	 */
	public Map<String, CridNode> all() {
		Map<String, CridNode> all = new LinkedHashMap<>();
		this.nodes.forEach((name, node) -> all.put(name, node.get()));
		return all;
	}

}
