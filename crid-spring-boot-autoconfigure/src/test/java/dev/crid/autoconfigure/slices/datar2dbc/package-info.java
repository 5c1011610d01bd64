/**
 * The {@code @DataR2dbcTest} slice tests with crid in them, and the small application
 * they are cut from.
 */
package dev.crid.autoconfigure.slices.datar2dbc;
