/**
 * A durable crid registry on any JDBC database:
 * {@link dev.crid.jdbc.JdbcTemplateRegistry} reserves blocks of sequence numbers in a
 * table shared by every node (Go or Java) of a service, with SQL dialects for PostgreSQL,
 * MariaDB, MySQL and H2 and a generic fallback. Its statements and schema scripts
 * ({@code dev/crid/jdbc/schema-<database>.sql} on the classpath) are those of
 * {@code crid-sql}, which the R2DBC registry shares.
 */
@NullMarked
package dev.crid.jdbc;

import org.jspecify.annotations.NullMarked;
