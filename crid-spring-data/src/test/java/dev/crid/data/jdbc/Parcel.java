package dev.crid.data.jdbc;

import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

import dev.crid.data.Crid;

/**
 * An immutable aggregate with a {@code Long} ID: the callback hands back a copy.
 */
@Table("crid_data_parcel")
record Parcel(@Id @Crid Long id, String label) {
}
