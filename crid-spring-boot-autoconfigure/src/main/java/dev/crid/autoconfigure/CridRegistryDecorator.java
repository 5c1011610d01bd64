package dev.crid.autoconfigure;

import dev.crid.CridNode;
import dev.crid.Registry;

/**
 * Wraps the {@link Registry} an auto-configured {@link CridNode} is built with, without
 * replacing the {@code Registry} bean: the node reserves its blocks through the returned
 * registry, while health checks, the endpoint and the user's own code still see the bean
 * itself. Every decorator bean is applied, in {@link org.springframework.core.Ordered}
 * order, the first innermost. crid's observation support is one
 * ({@code dev.crid.autoconfigure.observation}).
 *
 * <p>
 * A decorator must forward every method of {@code Registry}, and should keep the
 * decorated registry's {@code toString()}: the node names its registry by it in messages.
 */
@FunctionalInterface
public interface CridRegistryDecorator {

	/**
	 * The name of the default node: the one configured by {@code crid.*}.
	 */
	String DEFAULT_NODE_NAME = CridNodes.DEFAULT_NODE;

	/**
	 * Returns the registry the node should reserve its blocks through.
	 * @param nodeName the node's name, {@value #DEFAULT_NODE_NAME} for the default node
	 * @param registry the registry to decorate
	 * @return the decorated registry, or {@code registry} itself to leave it as it is
	 */
	Registry decorate(String nodeName, Registry registry);

}
