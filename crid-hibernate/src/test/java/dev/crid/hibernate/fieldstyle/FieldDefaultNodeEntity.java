package dev.crid.hibernate.fieldstyle;

import dev.crid.hibernate.Crid;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * A {@code Long} ID with {@code @Crid("default")} on the field: the same as
 * {@code @Crid}.
 */
@Entity
@Table(name = "crid_hib_field_default_named")
public class FieldDefaultNodeEntity {

	@Id
	@Crid("default")
	private Long id;

	private String note = "FieldDefaultNodeEntity";

	/**
	 * Creates an entity without an ID.
	 */
	public FieldDefaultNodeEntity() {
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
