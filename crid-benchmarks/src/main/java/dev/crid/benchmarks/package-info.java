/**
 * JMH benchmarks of crid, each beside a baseline measured in the same run.
 */
package dev.crid.benchmarks;
