package dev.crid.autoconfigure.slices.datajdbc;

import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

/**
 * A Spring Data JDBC aggregate whose ID {@link ShipmentIds} takes from the crid node
 * before it is inserted.
 *
 * @param id the crid ID, {@code null} until saved
 * @param destination where it goes
 */
@Table(Shipment.TABLE)
public record Shipment(@Id Long id, String destination) {

	static final String TABLE = "crid_slice_shipments";

	Shipment withId(long newId) {
		return new Shipment(newId, this.destination);
	}

}
