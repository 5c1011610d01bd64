/**
 * A durable crid registry on R2DBC, for reactive applications without a JDBC
 * {@code DataSource}: {@link dev.crid.r2dbc.R2dbcRegistry} reserves blocks in the tables
 * of the JDBC registry ({@code crid-jdbc}), with the same statements, schema scripts and
 * guards, which both share through {@code crid-sql}.
 */
@NullMarked
package dev.crid.r2dbc;

import org.jspecify.annotations.NullMarked;
