/**
 * Hands the {@link dev.crid.CridNode} bean to Hibernate, for entities whose identifiers
 * are {@code @Crid}.
 */
@NullMarked
package dev.crid.autoconfigure.hibernate;

import org.jspecify.annotations.NullMarked;
