package dev.crid.autoconfigure.jpa;

import dev.crid.hibernate.Crid;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;

/**
 * An entity with a crid ID, for the JPA tests of the auto-configuration.
 */
@Entity
public class Ticket {

	@Id
	@Crid
	private Long id;

	private String name;

	protected Ticket() {
	}

	/**
	 * Creates a ticket.
	 * @param name its name
	 */
	public Ticket(String name) {
		this.name = name;
	}

	/**
	 * Returns the ID, set when the ticket is persisted.
	 * @return the ID
	 */
	public Long getId() {
		return this.id;
	}

}
