package dev.crid.sample.shipping;

/**
 * A shipment as the API shows it, IDs as decimal strings (JavaScript numbers are exact only up to 2^53).
 *
 * @param id the shipment's crid ID
 * @param orderId the order shipped
 * @param destination where it goes
 */
public record ShipmentView(String id, String orderId, String destination) {

	static ShipmentView of(Shipment shipment) {
		return new ShipmentView(Long.toString(shipment.id()), Long.toString(shipment.orderId()),
				shipment.destination());
	}

}
