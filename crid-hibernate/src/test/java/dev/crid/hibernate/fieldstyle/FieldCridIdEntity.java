package dev.crid.hibernate.fieldstyle;

import dev.crid.CridId;
import dev.crid.hibernate.Crid;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * A {@link CridId} ID with {@code @Crid} on the field.
 */
@Entity
@Table(name = "crid_hib_field_crid_id")
public class FieldCridIdEntity {

	@Id
	@Crid
	private CridId id;

	private String note = "FieldCridIdEntity";

	/**
	 * Creates an entity without an ID.
	 */
	public FieldCridIdEntity() {
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
	public CridId getId() {
		return this.id;
	}

}
