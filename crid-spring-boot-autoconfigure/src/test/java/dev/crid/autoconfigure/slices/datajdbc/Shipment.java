package dev.crid.autoconfigure.slices.datajdbc;

import dev.crid.data.Crid;

import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

/**
 * A Spring Data JDBC aggregate as an application writes it: its ID comes from the crid
 * node, and nothing but {@code @Crid} says so.
 *
 * @param id the crid ID, {@code null} until saved
 * @param destination where it goes
 */
@Table(Shipment.TABLE)
public record Shipment(@Id @Crid Long id, String destination) {

	static final String TABLE = "crid_slice_shipments";

}
