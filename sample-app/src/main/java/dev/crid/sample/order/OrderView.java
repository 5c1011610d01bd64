package dev.crid.sample.order;

import java.time.Instant;
import java.util.List;

import dev.crid.CridId;

/**
 * An order as the API shows it. IDs are {@link CridId}s, which the crid starter's Jackson
 * module writes as JSON strings: a 63-bit ID does not survive as a JSON number in
 * JavaScript.
 *
 * @param id the order's ID
 * @param customer who placed it
 * @param createdAt when it was placed
 * @param items its line items
 */
public record OrderView(CridId id, String customer, Instant createdAt, List<Item> items) {

	static OrderView of(Order order) {
		List<Item> items = order.getItems()
			.stream()
			.map((item) -> new Item(CridId.of(item.getId()), item.getProduct(), item.getQuantity()))
			.toList();
		return new OrderView(CridId.of(order.getId()), order.getCustomer(), order.getCreatedAt(), items);
	}

	/**
	 * A line item as the API shows it.
	 *
	 * @param id the item's ID
	 * @param product the product
	 * @param quantity how many
	 */
	public record Item(CridId id, String product, int quantity) {
	}

}
