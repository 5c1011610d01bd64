/**
 * The capacity simulation: many crid nodes in a few JVMs on one database registry, each
 * driven at its share of a total rate, measured and reported per node and in sum. Run by
 * {@link dev.crid.benchmarks.capacity.CapacityBenchmark} behind the Maven profile
 * {@code capacity}; see {@code docs/BENCHMARKS.md}.
 */
package dev.crid.benchmarks.capacity;
