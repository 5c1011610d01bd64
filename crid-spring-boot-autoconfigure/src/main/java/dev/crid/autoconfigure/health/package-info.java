/**
 * The health indicator {@code crid}: whether the registry can serve and the node has IDs
 * to hand out, checked within a bound so that a database that hangs never holds a health
 * request.
 */
@NullMarked
package dev.crid.autoconfigure.health;

import org.jspecify.annotations.NullMarked;
