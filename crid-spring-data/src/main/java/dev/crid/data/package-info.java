/**
 * crid IDs for Spring Data JDBC and Spring Data R2DBC aggregates:
 * {@link dev.crid.data.Crid} on an aggregate's {@code @Id}, filled before the aggregate
 * is first written by the before-convert callbacks.
 */
@NullMarked
package dev.crid.data;

import org.jspecify.annotations.NullMarked;
