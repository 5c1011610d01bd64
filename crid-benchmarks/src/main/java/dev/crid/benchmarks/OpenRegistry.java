package dev.crid.benchmarks;

import dev.crid.InMemoryRegistry;
import dev.crid.Registry;

/**
 * A registry opened for a benchmark, together with the connection pool it holds, if any.
 */
final class OpenRegistry implements AutoCloseable {

	private final Registry registry;

	private final AutoCloseable resources;

	private OpenRegistry(Registry registry, AutoCloseable resources) {
		this.registry = registry;
		this.resources = resources;
	}

	/**
	 * Opens the given registry; a database registry gets its own table, created if absent.
	 */
	static OpenRegistry open(BenchmarkRegistry kind, String tableName, int poolSize) {
		return switch (kind) {
			case MEMORY -> new OpenRegistry(new InMemoryRegistry(), null);
		};
	}

	Registry registry() {
		return this.registry;
	}

	@Override
	public void close() {
		if (this.resources != null) {
			try {
				this.resources.close();
			}
			catch (Exception ex) {
				throw new IllegalStateException("Could not close " + this.resources, ex);
			}
		}
	}

}
