package dev.crid.testsupport;

import dev.crid.InMemoryRegistry;
import dev.crid.Registry;

/**
 * The registry contract, kept by {@link InMemoryRegistry} as the reference the databases
 * are held to.
 */
class InMemoryRegistryContractTest extends AbstractRegistryContractTest {

	private final InMemoryRegistry registry = new InMemoryRegistry();

	@Override
	protected Registry registry() {
		return this.registry;
	}

}
