package dev.crid.hibernate.fieldstyle;

import dev.crid.hibernate.Crid;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * A {@code Long} ID with {@code @Crid("publc")}, a node name no test offers.
 */
@Entity
@Table(name = "crid_hib_field_unknown_named")
public class FieldUnknownNodeEntity {

	@Id
	@Crid("publc")
	private Long id;

	private String note = "FieldUnknownNodeEntity";

	/**
	 * Creates an entity without an ID.
	 */
	public FieldUnknownNodeEntity() {
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
