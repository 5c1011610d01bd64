package dev.crid.hibernate.packagestyle;

import dev.crid.CridId;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * A {@link CridId} ID naming generator {@code "crid"}, with {@code @Crid} on the package.
 */
@Entity
@Table(name = "crid_hib_pkg_crid_id")
public class PackageCridIdEntity {

	@Id
	@GeneratedValue(generator = "crid")
	private CridId id;

	private String note = "PackageCridIdEntity";

	/**
	 * Creates an entity without an ID.
	 */
	public PackageCridIdEntity() {
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
	public CridId getId() {
		return this.id;
	}

}
