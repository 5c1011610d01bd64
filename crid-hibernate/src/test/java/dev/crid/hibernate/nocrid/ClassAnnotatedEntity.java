package dev.crid.hibernate.nocrid;

import dev.crid.hibernate.Crid;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * A {@code Long} ID naming generator {@code "crid"}, with {@code @Crid} on the entity
 * class.
 */
@Crid
@Entity
@Table(name = "crid_hib_class_annotated")
public class ClassAnnotatedEntity {

	@Id
	@GeneratedValue(generator = "crid")
	private Long id;

	private String note = "ClassAnnotatedEntity";

	/**
	 * Creates an entity without an ID.
	 */
	public ClassAnnotatedEntity() {
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
