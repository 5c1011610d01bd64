package dev.crid.autoconfigure.slices.datar2dbc;

import dev.crid.data.Crid;

import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

/**
 * A Spring Data R2DBC aggregate as an application writes it: its ID comes from the crid
 * node, and nothing but {@code @Crid} says so.
 *
 * @param id the crid ID, {@code null} until saved
 * @param recipient who it is for
 */
@Table(Parcel.TABLE)
public record Parcel(@Id @Crid Long id, String recipient) {

	static final String TABLE = "crid_slice_parcels";

}
