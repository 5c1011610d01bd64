/**
 * A durable crid registry on any JDBC database:
 * {@link dev.crid.jdbc.JdbcTemplateRegistry} reserves blocks of sequence numbers in a
 * table shared by every node (Go or Java) of a service, with SQL dialects for PostgreSQL,
 * MariaDB, MySQL and H2 and a generic fallback, and schema scripts under
 * {@code dev/crid/jdbc/schema-<database>.sql} on the classpath.
 */
@NullMarked
package dev.crid.jdbc;

import org.jspecify.annotations.NullMarked;
