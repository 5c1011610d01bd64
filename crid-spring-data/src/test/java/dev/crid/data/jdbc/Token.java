package dev.crid.data.jdbc;

import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

import dev.crid.CridId;
import dev.crid.data.Crid;

/**
 * An aggregate with a {@link CridId} ID, stored as a {@code BIGINT} through the crid
 * converters.
 */
@Table("crid_data_token")
record Token(@Id @Crid CridId id, String owner) {
}
