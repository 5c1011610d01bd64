/**
 * Auto-configuration of crid's observations: every block reservation of every node is an
 * observation named {@code crid.registry.reserve}.
 */
@NullMarked
package dev.crid.autoconfigure.observation;

import org.jspecify.annotations.NullMarked;
