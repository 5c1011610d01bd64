package dev.crid.hibernate.fieldstyle;

import jakarta.persistence.Entity;
import jakarta.persistence.Table;

/**
 * An entity whose ID, with {@code @Crid} on the field, comes from
 * {@link FieldBaseEntity}.
 */
@Entity
@Table(name = "crid_hib_field_inherited")
public class FieldInheritedEntity extends FieldBaseEntity {

	private String note = "FieldInheritedEntity";

	/**
	 * Creates an entity without an ID.
	 */
	public FieldInheritedEntity() {
	}

	/**
	 * Returns the note stored beside the ID.
	 * @return the note
	 */
	public String getNote() {
		return this.note;
	}

}
