/**
 * Auto-configuration of the health component {@code crid}: one indicator, or one per
 * node.
 */
@NullMarked
package dev.crid.autoconfigure.health;

import org.jspecify.annotations.NullMarked;
