/**
 * The actuator endpoint {@code crid}: the node's layout, registry and statistics, and the
 * decoding of an ID.
 */
@NullMarked
package dev.crid.autoconfigure.endpoint;

import org.jspecify.annotations.NullMarked;
