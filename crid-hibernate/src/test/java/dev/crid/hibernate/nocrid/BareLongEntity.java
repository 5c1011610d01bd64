package dev.crid.hibernate.nocrid;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * A {@code Long} ID naming generator {@code "crid"} with no {@code @Crid} in reach: plain
 * Hibernate would take it from a database sequence named {@code crid}.
 */
@Entity
@Table(name = "crid_hib_bare_long")
public class BareLongEntity {

	@Id
	@GeneratedValue(generator = "crid")
	private Long id;

	private String note = "BareLongEntity";

	/**
	 * Creates an entity without an ID.
	 */
	public BareLongEntity() {
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
	public Long getId() {
		return this.id;
	}

}
