package dev.crid.autoconfigure;

import dev.crid.Registry;

/**
 * Creates the registry of each named node ({@code crid.nodes.<name>}): a registry of the
 * same kind as the default node's, on the node's own table. crid's database, R2DBC and
 * in-memory registry configurations each define one; an application that defines its own
 * {@link Registry} bean and names nodes defines its own factory too.
 */
@FunctionalInterface
public interface CridRegistryFactory {

	/**
	 * Creates the registry of a named node, ready to reserve blocks: its table created or
	 * checked as {@code initialize-schema} asks.
	 * @param nodeName the node's name
	 * @param nodeProperties the node's properties, those of {@code crid.*} where the node
	 * sets none
	 * @return the node's registry
	 */
	Registry create(String nodeName, NodeProperties nodeProperties);

}
