package dev.crid.hibernate.fieldstyle;

import dev.crid.hibernate.Crid;
import jakarta.persistence.Id;
import jakarta.persistence.MappedSuperclass;

/**
 * A mapped superclass that declares a {@code Long} ID with {@code @Crid} on the field.
 */
@MappedSuperclass
public abstract class FieldBaseEntity {

	@Id
	@Crid
	private Long id;

	/**
	 * Returns the ID.
	 * @return the ID, or {@code null} before the entity is persisted
	 */
	public Long getId() {
		return this.id;
	}

}
