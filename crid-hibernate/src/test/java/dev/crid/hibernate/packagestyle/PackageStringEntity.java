package dev.crid.hibernate.packagestyle;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * A decimal {@code String} ID naming generator {@code "crid"}, with {@code @Crid} on the
 * package.
 */
@Entity
@Table(name = "crid_hib_pkg_string")
public class PackageStringEntity {

	@Id
	@GeneratedValue(generator = "crid")
	private String id;

	private String note = "PackageStringEntity";

	/**
	 * Creates an entity without an ID.
	 */
	public PackageStringEntity() {
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
