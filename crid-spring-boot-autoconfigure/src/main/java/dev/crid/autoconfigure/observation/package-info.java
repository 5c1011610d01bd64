/**
 * Micrometer Observation support: every block reservation of the auto-configured node is
 * an observation named {@code crid.registry.reserve}, made on the thread that calls the
 * registry, so that tracing shows registry round trips inside the spans of the calls that
 * wait for them.
 */
@NullMarked
package dev.crid.autoconfigure.observation;

import org.jspecify.annotations.NullMarked;
