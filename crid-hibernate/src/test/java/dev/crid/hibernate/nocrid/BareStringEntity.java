package dev.crid.hibernate.nocrid;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * A {@code String} ID naming generator {@code "crid"} with no {@code @Crid} in reach:
 * plain Hibernate would give it a random UUID.
 */
@Entity
@Table(name = "crid_hib_bare_string")
public class BareStringEntity {

	@Id
	@GeneratedValue(generator = "crid")
	private String id;

	private String note = "BareStringEntity";

	/**
	 * Creates an entity without an ID.
	 */
	public BareStringEntity() {
	}

	/**
	 * Returns the note stored beside the ID.
	 * @return the note
	 */
	public String getNote() {
		return this.note;
	}

	/**
	 * Returns the ID.
	 * @return the ID, or {@code null} before the entity is persisted
	 */
	public String getId() {
		return this.id;
	}

}
