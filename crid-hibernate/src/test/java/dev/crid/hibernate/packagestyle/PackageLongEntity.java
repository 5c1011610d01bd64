package dev.crid.hibernate.packagestyle;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * A {@code Long} ID naming generator {@code "crid"}, with {@code @Crid} on the package.
 */
@Entity
@Table(name = "crid_hib_pkg_long")
public class PackageLongEntity {

	@Id
	@GeneratedValue(generator = "crid")
	private Long id;

	private String note = "PackageLongEntity";

	/**
	 * Creates an entity without an ID.
	 */
	public PackageLongEntity() {
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
