/**
 * The choice of the registry the nodes reserve their blocks in, one kind in a documented
 * order, and each kind's configuration: the database registry on the application's
 * DataSource (its table created or checked once, after the database's other initializers,
 * before any node reserves a block), the one on its R2DBC ConnectionFactory, and the
 * in-memory one.
 */
@NullMarked
package dev.crid.autoconfigure.registry;

import org.jspecify.annotations.NullMarked;
