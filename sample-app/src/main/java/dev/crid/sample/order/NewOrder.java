package dev.crid.sample.order;

import java.util.List;

/**
 * The body of {@code POST /orders}.
 *
 * @param customer who places the order
 * @param items what they order, at least one item
 */
public record NewOrder(String customer, List<Item> items) {

	/**
	 * Returns what is wrong with this request.
	 * @return a message for the client, or {@code null} if the order can be placed
	 */
	public String problem() {
		if (this.customer == null || this.customer.isBlank()) {
			return "customer must not be blank";
		}
		if (this.items == null || this.items.isEmpty()) {
			return "items must hold at least one item";
		}
		for (Item item : this.items) {
			if (item == null || item.product() == null || item.product().isBlank()) {
				return "every item needs a product";
			}
			if (item.quantity() < 1) {
				return "quantity of " + item.product() + " must be at least 1, was " + item.quantity();
			}
		}
		return null;
	}

	/**
	 * One line of a new order.
	 *
	 * @param product the product
	 * @param quantity how many, at least 1
	 */
	public record Item(String product, int quantity) {
	}

}
