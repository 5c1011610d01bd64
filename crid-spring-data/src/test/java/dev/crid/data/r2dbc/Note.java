package dev.crid.data.r2dbc;

import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

import dev.crid.data.Crid;

/**
 * A Spring Data R2DBC aggregate with a crid ID.
 */
@Table("crid_r2dbc_note")
record Note(@Id @Crid Long id, String body) {
}
