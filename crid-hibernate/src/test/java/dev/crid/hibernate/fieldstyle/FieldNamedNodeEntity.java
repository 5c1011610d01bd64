package dev.crid.hibernate.fieldstyle;

import dev.crid.hibernate.Crid;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * A {@code Long} ID with {@code @Crid("public")} on the field: its IDs come from the node
 * named {@code public}.
 */
@Entity
@Table(name = "crid_hib_field_named")
public class FieldNamedNodeEntity {

	@Id
	@Crid("public")
	private Long id;

	private String note = "FieldNamedNodeEntity";

	/**
	 * Creates an entity without an ID.
	 */
	public FieldNamedNodeEntity() {
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
