package dev.crid.autoconfigure.registry;

import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

import dev.crid.data.Crid;

/**
 * A Spring Data R2DBC aggregate with a crid ID.
 */
@Table("CRID_R2DBC_SHELF")
record R2dbcShelf(@Id @Crid Long id, String aisle) {
}
