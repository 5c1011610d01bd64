package dev.crid.sample.shipping;

import dev.crid.CridId;

/**
 * A shipment as the API shows it. IDs are {@link CridId}s, which crid writes as JSON
 * strings (JavaScript numbers are exact only up to 2^53) in the form
 * {@code crid.id-format} chooses, as the orders' IDs.
 *
 * @param id the shipment's crid ID
 * @param orderId the order shipped
 * @param destination where it goes
 */
public record ShipmentView(CridId id, CridId orderId, String destination) {

	static ShipmentView of(Shipment shipment) {
		return new ShipmentView(CridId.of(shipment.id()), CridId.of(shipment.orderId()), shipment.destination());
	}

}
