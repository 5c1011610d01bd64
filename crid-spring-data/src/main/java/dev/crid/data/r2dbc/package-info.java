/**
 * A durable crid registry on R2DBC, for reactive applications without a JDBC
 * {@code DataSource}: the same tables, statements and guards as the JDBC registry of
 * {@code crid-jdbc}.
 */
@NullMarked
package dev.crid.data.r2dbc;

import org.jspecify.annotations.NullMarked;
