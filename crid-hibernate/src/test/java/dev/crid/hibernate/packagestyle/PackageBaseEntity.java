package dev.crid.hibernate.packagestyle;

import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.MappedSuperclass;

/**
 * A mapped superclass that declares a {@code Long} ID naming generator {@code "crid"},
 * with {@code @Crid} on its package.
 */
@MappedSuperclass
public abstract class PackageBaseEntity {

	@Id
	@GeneratedValue(generator = "crid")
	private Long id;

	/**
	 * Returns the ID.
	 * @return the ID, or {@code null} before the entity is persisted
	 */
	public Long getId() {
		return this.id;
	}

}
