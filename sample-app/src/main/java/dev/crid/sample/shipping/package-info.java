/**
 * Shipments, stored with Spring Data JDBC beside the JPA orders:
 * {@code @Id @dev.crid.data.Crid} on the aggregate gives it a crid ID from the same node,
 * with no Hibernate involved.
 */
package dev.crid.sample.shipping;
