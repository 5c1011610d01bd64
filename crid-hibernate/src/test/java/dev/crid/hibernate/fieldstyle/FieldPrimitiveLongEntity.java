package dev.crid.hibernate.fieldstyle;

import dev.crid.hibernate.Crid;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * A primitive {@code long} ID with {@code @Crid} on the field.
 */
@Entity
@Table(name = "crid_hib_field_plong")
public class FieldPrimitiveLongEntity {

	@Id
	@Crid
	private long id;

	private String note = "FieldPrimitiveLongEntity";

	/**
	 * Creates an entity without an ID.
	 */
	public FieldPrimitiveLongEntity() {
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
	public long getId() {
		return this.id;
	}

}
