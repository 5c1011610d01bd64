package dev.crid.benchmarks.capacity;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import dev.crid.CridNode;
import dev.crid.benchmarks.BenchmarkDatabase;

/**
 * One run of the simulation: so many nodes, spread over so many JVMs, on one database,
 * each node built with the same settings and driven at an equal share of the total rate.
 *
 * @param database the database holding the registry table(s)
 * @param nodes how many nodes in all
 * @param jvms how many worker processes the nodes are spread over
 * @param totalRate IDs per second asked of all nodes together
 * @param warmUp how long the nodes run before the measurement starts
 * @param measurement how long the measurement lasts
 * @param blockSize each node's configured block size
 * @param threshold each node's configured threshold
 * @param runway each node's runway, zero for none
 * @param sequenceBits the layout's sequence bits (the rest are the timestamp's)
 * @param tables how many registry tables the nodes are spread over, node {@code i} on
 * table {@code i % tables}
 * @param nodesPerDriver how many nodes one paced caller thread drives at most
 * @param sampleEvery one call in about this many is timed
 * @param poolSize the connections of each worker process's pool, which its nodes share
 */
record Scenario(BenchmarkDatabase database, int nodes, int jvms, long totalRate, Duration warmUp, Duration measurement,
		long blockSize, long threshold, Duration runway, int sequenceBits, int tables, int nodesPerDriver,
		int sampleEvery, int poolSize) {

	Scenario {
		if (nodes < 1 || jvms < 1 || totalRate < nodes || tables < 1 || nodesPerDriver < 1 || sampleEvery < 1
				|| poolSize < 1) {
			throw new IllegalArgumentException("Needs at least one node, JVM, table, driver, sample and connection, "
					+ "and an ID per second per node: " + nodes + " nodes, " + jvms + " JVMs, rate " + totalRate + ", "
					+ tables + " tables, " + nodesPerDriver + " nodes per driver, sample every " + sampleEvery
					+ ", pool " + poolSize);
		}
	}

	/**
	 * Reads the settings shared by every scenario of a run; database and node count come
	 * from the caller.
	 */
	static Scenario read(Arguments arguments, BenchmarkDatabase database, int nodes) {
		long blockSize = arguments.number("blockSize", CridNode.DEFAULT_BLOCK_SIZE);
		long threshold = arguments.number("threshold",
				(blockSize == CridNode.DEFAULT_BLOCK_SIZE) ? CridNode.DEFAULT_THRESHOLD : blockSize / 2);
		return new Scenario(database, nodes, arguments.integer("jvms", 4), arguments.number("rate", 10_000_000),
				arguments.seconds("warmUp", Duration.ofSeconds(10)),
				arguments.seconds("seconds", Duration.ofSeconds(40)), blockSize, threshold,
				arguments.seconds("runway", Duration.ZERO), arguments.integer("sequenceBits", 32),
				arguments.integer("tables", 1), arguments.integer("nodesPerDriver", 8),
				arguments.integer("sampleEvery", 32), arguments.integer("poolSize", 4));
	}

	/** The database named as in the arguments. */
	static BenchmarkDatabase database(String name) {
		return BenchmarkDatabase.valueOf(name.trim().toUpperCase(Locale.ROOT));
	}

	/** IDs per second asked of each node. */
	long ratePerNode() {
		return this.totalRate / this.nodes;
	}

	/**
	 * How many of the nodes the given worker runs: an equal share, the first ones one
	 * more.
	 */
	int nodesOf(int jvm) {
		return this.nodes / this.jvms + ((jvm < this.nodes % this.jvms) ? 1 : 0);
	}

	/** The index of the given worker's first node. */
	int firstNodeOf(int jvm) {
		int first = 0;
		for (int i = 0; i < jvm; i++) {
			first += nodesOf(i);
		}
		return first;
	}

	/** The arguments that give a worker this scenario. */
	List<String> toArguments() {
		List<String> arguments = new ArrayList<>();
		add(arguments, "database", this.database.name());
		add(arguments, "nodes", this.nodes);
		add(arguments, "jvms", this.jvms);
		add(arguments, "rate", this.totalRate);
		add(arguments, "warmUp", this.warmUp.toSeconds());
		add(arguments, "seconds", this.measurement.toSeconds());
		add(arguments, "blockSize", this.blockSize);
		add(arguments, "threshold", this.threshold);
		add(arguments, "runway", this.runway.toSeconds());
		add(arguments, "sequenceBits", this.sequenceBits);
		add(arguments, "tables", this.tables);
		add(arguments, "nodesPerDriver", this.nodesPerDriver);
		add(arguments, "sampleEvery", this.sampleEvery);
		add(arguments, "poolSize", this.poolSize);
		return arguments;
	}

	/** Reads what {@link #toArguments()} wrote. */
	static Scenario fromArguments(Arguments arguments) {
		BenchmarkDatabase database = database(arguments.string("database", "POSTGRESQL"));
		return read(arguments, database, arguments.integer("nodes", 1));
	}

	/** The table node {@code node} reserves in. */
	String table(String baseName, int node) {
		int table = node % this.tables;
		return (table == 0) ? baseName : baseName + "_" + (table + 1);
	}

	private static void add(List<String> arguments, String name, Object value) {
		arguments.add("-" + name);
		arguments.add(String.valueOf(value));
	}

}
