/**
 * Hands the {@link dev.crid.CridNode} bean to Hibernate, for entities whose identifiers are {@code @Crid}.
 */
package dev.crid.autoconfigure.hibernate;
