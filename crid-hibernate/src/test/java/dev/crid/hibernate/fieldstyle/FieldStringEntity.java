package dev.crid.hibernate.fieldstyle;

import dev.crid.hibernate.Crid;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * A decimal {@code String} ID with {@code @Crid} on the field.
 */
@Entity
@Table(name = "crid_hib_field_string")
public class FieldStringEntity {

	@Id
	@Crid
	private String id;

	private String note = "FieldStringEntity";

	/**
	 * Creates an entity without an ID.
	 */
	public FieldStringEntity() {
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
	 * @return the ID, or its default before the entity is persisted
	 */
	public String getId() {
		return this.id;
	}

}
