package dev.crid.hibernate.fieldstyle;

import java.util.UUID;

import dev.crid.hibernate.Crid;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * A {@code UUID} ID with {@code @Crid}: a type that cannot hold a crid ID.
 */
@Entity
@Table(name = "crid_hib_field_uuid")
public class FieldUuidEntity {

	@Id
	@Crid
	private UUID id;

	private String note = "FieldUuidEntity";

	/**
	 * Creates an entity without an ID.
	 */
	public FieldUuidEntity() {
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
	public UUID getId() {
		return this.id;
	}

}
