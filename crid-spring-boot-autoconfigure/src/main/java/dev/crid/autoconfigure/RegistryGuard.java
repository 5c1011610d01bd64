package dev.crid.autoconfigure;

import dev.crid.Registry;

/**
 * Work that must be done before a node's first allocation, applied by wrapping the registry the node is
 * built with. An interface of its own so that {@link CridAutoConfiguration} never touches the classes of
 * the optional database support.
 */
public interface RegistryGuard {

	/**
	 * Returns a registry that does the work before its first allocation, then delegates.
	 * @param registry the registry to guard
	 * @return the guarded registry
	 */
	Registry guard(Registry registry);

}
