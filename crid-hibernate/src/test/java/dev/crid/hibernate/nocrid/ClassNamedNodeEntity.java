package dev.crid.hibernate.nocrid;

import dev.crid.hibernate.Crid;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * A decimal {@code String} ID naming generator {@code "crid"}, with
 * {@code @Crid("public")} on the entity class.
 */
@Crid("public")
@Entity
@Table(name = "crid_hib_class_named")
public class ClassNamedNodeEntity {

	@Id
	@GeneratedValue(generator = "crid")
	private String id;

	private String note = "ClassNamedNodeEntity";

	/**
	 * Creates an entity without an ID.
	 */
	public ClassNamedNodeEntity() {
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
	public String getId() {
		return this.id;
	}

}
