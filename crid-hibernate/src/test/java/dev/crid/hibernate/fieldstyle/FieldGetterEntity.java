package dev.crid.hibernate.fieldstyle;

import dev.crid.hibernate.Crid;
import jakarta.persistence.Access;
import jakarta.persistence.AccessType;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * A {@code Long} ID with property access and {@code @Crid} on the getter.
 */
@Entity
@Table(name = "crid_hib_field_getter")
@Access(AccessType.PROPERTY)
public class FieldGetterEntity {

	private Long id;

	private String note = "FieldGetterEntity";

	/**
	 * Returns the ID.
	 * @return the ID, or {@code null} before the entity is persisted
	 */
	@Id
	@Crid
	public Long getId() {
		return this.id;
	}

	/**
	 * Sets the ID; called by Hibernate.
	 * @param id the ID
	 */
	public void setId(Long id) {
		this.id = id;
	}

	/**
	 * Returns the note stored beside the ID.
	 * @return the note
	 */
	public String getNote() {
		return this.note;
	}

	/**
	 * Sets the note.
	 * @param note the note
	 */
	public void setNote(String note) {
		this.note = note;
	}

}
