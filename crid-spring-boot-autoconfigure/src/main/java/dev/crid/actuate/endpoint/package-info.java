/**
 * The actuator endpoint {@code crid}: each node's layout, registry and statistics, and
 * the decoding of an ID. Usable without Spring Boot's auto-configuration, which declares
 * it when it is available.
 */
@NullMarked
package dev.crid.actuate.endpoint;

import org.jspecify.annotations.NullMarked;
