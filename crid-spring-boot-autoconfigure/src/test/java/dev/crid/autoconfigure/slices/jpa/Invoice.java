package dev.crid.autoconfigure.slices.jpa;

import dev.crid.hibernate.Crid;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * An entity with a crid ID.
 */
@Entity
@Table(name = "crid_slice_invoices")
public class Invoice {

	@Id
	@Crid
	private Long id;

	private String customer;

	protected Invoice() {
	}

	/**
	 * Creates an invoice without an ID.
	 * @param customer who is billed
	 */
	public Invoice(String customer) {
		this.customer = customer;
	}

	/**
	 * Returns the ID.
	 * @return the crid ID, {@code null} before the invoice is saved
	 */
	public Long getId() {
		return this.id;
	}

	/**
	 * Returns who is billed.
	 * @return the customer
	 */
	public String getCustomer() {
		return this.customer;
	}

}
