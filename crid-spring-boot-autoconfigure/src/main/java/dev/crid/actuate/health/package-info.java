/**
 * The health of a crid node: whether its registry can serve and the node has IDs to hand
 * out, checked within a bound so that a database that hangs never holds a health request.
 * Usable without Spring Boot's auto-configuration, which makes the health component
 * {@code crid} of it.
 */
@NullMarked
package dev.crid.actuate.health;

import org.jspecify.annotations.NullMarked;
