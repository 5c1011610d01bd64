package dev.crid.autoconfigure.data.shelf;

import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

import dev.crid.data.Crid;

/**
 * A Spring Data aggregate with a crid ID, for the JDBC and R2DBC auto-configuration
 * tests.
 */
@Table("CRID_SHELF")
public record Shelf(@Id @Crid Long id, String aisle) {
}
