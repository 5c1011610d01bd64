/**
 * The SQL that crid's database registries share, written once per dialect: how a block is
 * reserved, the schema scripts ({@code dev/crid/jdbc/schema-<database>.sql} on the
 * classpath, for Flyway or Liquibase) and the eviction, each run over a
 * {@link dev.crid.sql.SqlSession} that a registry module provides: {@code crid-jdbc} on a
 * JDBC connection, {@code crid-r2dbc} on an R2DBC one. A fix to a dialect reaches both.
 *
 * <p>
 * Not an API for applications: its types are public only so that the registry modules can
 * use them, and they may change in any release. Applications use
 * {@code dev.crid.jdbc.JdbcTemplateRegistry} or {@code dev.crid.r2dbc.R2dbcRegistry}. JDK
 * only.
 */
@NullMarked
package dev.crid.sql;

import org.jspecify.annotations.NullMarked;
