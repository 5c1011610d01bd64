package dev.crid.sample.order;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;

/**
 * One product and quantity of an {@link Order}. Its identifier names the generator
 * {@code "crid"}, which {@code @Crid} on this package provides.
 */
@Entity
@Table(name = "line_items")
public class LineItem {

	@Id
	@GeneratedValue(generator = "crid")
	private Long id;

	@ManyToOne(fetch = FetchType.LAZY, optional = false)
	@JoinColumn(name = "order_id", nullable = false)
	private Order order;

	@Column(nullable = false)
	private String product;

	@Column(nullable = false)
	private int quantity;

	/**
	 * For JPA.
	 */
	protected LineItem() {
	}

	LineItem(Order order, String product, int quantity) {
		this.order = order;
		this.product = product;
		this.quantity = quantity;
	}

	/**
	 * Returns the identifier, {@code null} until the item is saved.
	 * @return the crid ID
	 */
	public Long getId() {
		return this.id;
	}

	/**
	 * Returns the order this item belongs to.
	 * @return the order
	 */
	public Order getOrder() {
		return this.order;
	}

	/**
	 * Returns the product ordered.
	 * @return the product
	 */
	public String getProduct() {
		return this.product;
	}

	/**
	 * Returns how many of the product were ordered.
	 * @return the quantity
	 */
	public int getQuantity() {
		return this.quantity;
	}

}
