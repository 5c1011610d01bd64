/**
 * Auto-configuration of crid for Spring Data JDBC and Spring Data R2DBC: the callbacks
 * that give {@code @Id @dev.crid.data.Crid} aggregates their IDs, and the start-up check
 * of every aggregate.
 */
@NullMarked
package dev.crid.autoconfigure.data;

import org.jspecify.annotations.NullMarked;
