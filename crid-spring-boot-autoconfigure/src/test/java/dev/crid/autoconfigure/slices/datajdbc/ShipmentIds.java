package dev.crid.autoconfigure.slices.datajdbc;

import dev.crid.CridNode;

import org.springframework.data.relational.core.mapping.event.BeforeConvertCallback;
import org.springframework.stereotype.Component;

/**
 * Gives a new {@link Shipment} a crid ID before Spring Data JDBC inserts it, the way
 * Spring Data JDBC applications assign IDs that the database does not generate.
 */
@Component
public class ShipmentIds implements BeforeConvertCallback<Shipment> {

	private final CridNode ids;

	ShipmentIds(CridNode ids) {
		this.ids = ids;
	}

	@Override
	public Shipment onBeforeConvert(Shipment shipment) {
		return (shipment.id() != null) ? shipment : shipment.withId(this.ids.nextId());
	}

}
