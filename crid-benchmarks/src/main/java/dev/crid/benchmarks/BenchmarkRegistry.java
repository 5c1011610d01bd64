package dev.crid.benchmarks;

import java.util.Locale;

/**
 * The registries a node under test can reserve its blocks in, named as the benchmarks'
 * {@code registry} parameter names them.
 */
enum BenchmarkRegistry {

	/** {@code InMemoryRegistry}: no I/O at all. */
	MEMORY(null),

	/**
	 * {@code InMemoryRegistry} behind a delay of 1 ms per reservation: slow, but still no
	 * I/O.
	 */
	DELAYED(null),

	/** {@code JdbcTemplateRegistry} on PostgreSQL. */
	POSTGRESQL(BenchmarkDatabase.POSTGRESQL),

	/** {@code JdbcTemplateRegistry} on MariaDB. */
	MARIADB(BenchmarkDatabase.MARIADB);

	private final BenchmarkDatabase database;

	BenchmarkRegistry(BenchmarkDatabase database) {
		this.database = database;
	}

	static BenchmarkRegistry of(String name) {
		return valueOf(name.toUpperCase(Locale.ROOT));
	}

	BenchmarkDatabase database() {
		return this.database;
	}

}
