/**
 * What crid shows through Spring Boot's actuator, usable without Spring Boot's
 * auto-configuration: the health of a node ({@code .health}), the endpoint
 * ({@code .endpoint}), and the description of a registry they share.
 */
@NullMarked
package dev.crid.actuate;

import org.jspecify.annotations.NullMarked;
