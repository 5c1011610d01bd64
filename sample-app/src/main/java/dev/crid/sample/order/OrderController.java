package dev.crid.sample.order;

import java.util.List;

import dev.crid.CridId;
import jakarta.validation.Valid;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.servlet.mvc.method.annotation.MvcUriComponentsBuilder;
import org.springframework.web.util.UriComponentsBuilder;

/**
 * {@code /orders}: place an order, fetch one by ID, list the newest.
 */
@RestController
@RequestMapping("/orders")
public class OrderController {

	private static final int MAX_LIMIT = 100;

	private final OrderService orders;

	OrderController(OrderService orders) {
		this.orders = orders;
	}

	/**
	 * {@code POST /orders}: places an order.
	 * @param request the customer and the items
	 * @return 201 with the order and its {@code Location}, or 400 naming every invalid
	 * field
	 */
	@PostMapping
	public ResponseEntity<OrderView> create(@Valid @RequestBody NewOrder request) {
		OrderView order = this.orders.create(request);
		// Built from find()'s mapping, so the ID is printed as crid binds it back:
		// decimal or base32.
		return ResponseEntity
			.created(MvcUriComponentsBuilder
				.fromMethodName(UriComponentsBuilder.newInstance(), OrderController.class, "find", order.id())
				.build()
				.toUri())
			.body(order);
	}

	/**
	 * {@code GET /orders/{id}}: fetches an order.
	 * @param id the order's ID, in the form {@code crid.id-format} chooses, decimal or
	 * base32 (crid binds it; a malformed one is a 400 with the reason)
	 * @return the order; 404 if there is none
	 */
	@GetMapping("/{id}")
	public OrderView find(@PathVariable CridId id) {
		return this.orders.find(id)
			.orElseThrow(() -> new ResponseStatusException(HttpStatus.NOT_FOUND, "No order with ID " + id));
	}

	/**
	 * {@code GET /orders?limit=20}: lists the newest orders.
	 * @param limit how many at most, 1 to 100
	 * @return the orders, newest first
	 */
	@GetMapping
	public List<OrderView> list(@RequestParam(defaultValue = "20") int limit) {
		if (limit < 1 || limit > MAX_LIMIT) {
			throw new ResponseStatusException(HttpStatus.BAD_REQUEST,
					"limit must be from 1 to " + MAX_LIMIT + ", was " + limit);
		}
		return this.orders.newest(limit);
	}

}
