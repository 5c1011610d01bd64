/**
 * The {@code @DataJdbcTest} slice tests with crid in them, and the small application they
 * are cut from.
 */
package dev.crid.autoconfigure.slices.datajdbc;
