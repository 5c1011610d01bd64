/**
 * Micrometer support for crid nodes: {@link dev.crid.micrometer.CridMeterBinder}
 * publishes their statistics as meters, and {@link dev.crid.micrometer.ObservedRegistry}
 * makes every block reservation an observation, on the thread that calls the registry, so
 * that tracing shows registry round trips inside the spans of the calls that wait for
 * them. Usable without Spring Boot's auto-configuration, which only wires them.
 */
@NullMarked
package dev.crid.micrometer;

import org.jspecify.annotations.NullMarked;
