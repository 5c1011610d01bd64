/**
 * The entities of the JPA insert benchmark: one small row, with one identifier strategy
 * per entity.
 */
package dev.crid.benchmarks.jpa;
