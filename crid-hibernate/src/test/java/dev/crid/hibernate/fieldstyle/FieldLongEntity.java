package dev.crid.hibernate.fieldstyle;

import dev.crid.hibernate.Crid;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * A {@code Long} ID with {@code @Crid} on the field.
 */
@Entity
@Table(name = "crid_hib_field_long")
public class FieldLongEntity {

	@Id
	@Crid
	private Long id;

	private String note = "FieldLongEntity";

	/**
	 * Creates an entity without an ID.
	 */
	public FieldLongEntity() {
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
	public Long getId() {
		return this.id;
	}

}
