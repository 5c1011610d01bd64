/**
 * The {@code @JdbcTest} slice tests with crid in them, and the small application they are
 * cut from.
 */
package dev.crid.autoconfigure.slices.jdbc;
