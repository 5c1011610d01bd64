/**
 * crid IDs for JPA/Hibernate entities: annotate the identifier (or its package) with
 * {@link dev.crid.hibernate.Crid} and put a {@link dev.crid.CridNode} in the Hibernate
 * settings under {@link dev.crid.hibernate.CridIdentifierGenerator#NODE_SETTING}; named
 * nodes, for {@code @Crid("name")}, go under
 * {@link dev.crid.hibernate.CridIdentifierGenerator#NODES_SETTING}.
 */
@NullMarked
package dev.crid.hibernate;

import org.jspecify.annotations.NullMarked;
