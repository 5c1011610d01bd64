package dev.crid.sample.order;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import dev.crid.hibernate.Crid;
import jakarta.persistence.CascadeType;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.OneToMany;
import jakarta.persistence.OrderBy;
import jakarta.persistence.Table;

/**
 * An order: a customer and the line items they ordered. Its identifier is a crid ID,
 * assigned by Hibernate before the INSERT because of {@code @Crid} on the field.
 */
@Entity
@Table(name = "orders")
public class Order {

	@Id
	@Crid
	private Long id;

	@Column(nullable = false)
	private String customer;

	@Column(nullable = false)
	private Instant createdAt;

	@OneToMany(mappedBy = "order", cascade = CascadeType.ALL, orphanRemoval = true)
	@OrderBy("id")
	private List<LineItem> items = new ArrayList<>();

	/**
	 * For JPA.
	 */
	protected Order() {
	}

	/**
	 * Creates an order without items.
	 * @param customer who placed the order
	 * @param createdAt when it was placed
	 */
	public Order(String customer, Instant createdAt) {
		this.customer = customer;
		this.createdAt = createdAt;
	}

	/**
	 * Adds a line item to this order.
	 * @param product the product ordered
	 * @param quantity how many of it
	 * @return the new item, saved with the order
	 */
	public LineItem addItem(String product, int quantity) {
		LineItem item = new LineItem(this, product, quantity);
		this.items.add(item);
		return item;
	}

	/**
	 * Returns the identifier, {@code null} until the order is saved.
	 * @return the crid ID
	 */
	public Long getId() {
		return this.id;
	}

	/**
	 * Returns who placed the order.
	 * @return the customer
	 */
	public String getCustomer() {
		return this.customer;
	}

	/**
	 * Returns when the order was placed.
	 * @return the creation time
	 */
	public Instant getCreatedAt() {
		return this.createdAt;
	}

	/**
	 * Returns the line items.
	 * @return the items, in the order of their IDs
	 */
	public List<LineItem> getItems() {
		return this.items;
	}

}
