package dev.crid.sample.shipping;

import dev.crid.CridId;
import jakarta.validation.Valid;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.servlet.mvc.method.annotation.MvcUriComponentsBuilder;
import org.springframework.web.util.UriComponentsBuilder;

/**
 * {@code /shipments}: record a shipment, fetch one by ID.
 */
@RestController
@RequestMapping("/shipments")
public class ShipmentController {

	private final ShipmentRepository shipments;

	ShipmentController(ShipmentRepository shipments) {
		this.shipments = shipments;
	}

	/**
	 * {@code POST /shipments}: records a shipment.
	 * @param request the order and the destination
	 * @return 201 with the shipment and its {@code Location}
	 */
	@PostMapping
	public ResponseEntity<ShipmentView> create(@Valid @RequestBody NewShipment request) {
		Shipment saved = this.shipments.save(new Shipment(null, request.orderId().value(), request.destination()));
		ShipmentView shipment = ShipmentView.of(saved);
		return ResponseEntity
			.created(MvcUriComponentsBuilder
				.fromMethodName(UriComponentsBuilder.newInstance(), ShipmentController.class, "find", shipment.id())
				.build()
				.toUri())
			.body(shipment);
	}

	/**
	 * {@code GET /shipments/{id}}: fetches a shipment.
	 * @param id the shipment's ID, in the form {@code crid.id-format} chooses
	 * @return the shipment; 404 if there is none
	 */
	@GetMapping("/{id}")
	public ShipmentView find(@PathVariable CridId id) {
		return this.shipments.findById(id.value())
			.map(ShipmentView::of)
			.orElseThrow(() -> new ResponseStatusException(HttpStatus.NOT_FOUND, "No shipment with ID " + id));
	}

}
