/**
 * The database registry on the application's DataSource, and the start-up work around its
 * table: created or checked once, after the database's other initializers, before any
 * node reserves a block.
 */
@NullMarked
package dev.crid.autoconfigure.jdbc;

import org.jspecify.annotations.NullMarked;
