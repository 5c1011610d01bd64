package dev.crid.hibernate.packagestyle;

import jakarta.persistence.Entity;
import jakarta.persistence.Table;

/**
 * An entity whose ID comes from {@link PackageBaseEntity}, in this package with
 * {@code @Crid}.
 */
@Entity
@Table(name = "crid_hib_pkg_inherited")
public class PackageInheritedEntity extends PackageBaseEntity {

	private String note = "PackageInheritedEntity";

	/**
	 * Creates an entity without an ID.
	 */
	public PackageInheritedEntity() {
	}

	/**
	 * Returns the note stored beside the ID.
	 * @return the note
	 */
	public String getNote() {
		return this.note;
	}

}
