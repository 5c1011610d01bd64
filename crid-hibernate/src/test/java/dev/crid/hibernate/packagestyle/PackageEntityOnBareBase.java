package dev.crid.hibernate.packagestyle;

import dev.crid.hibernate.nocrid.BareBaseEntity;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

/**
 * An entity in a package with {@code @Crid} whose ID comes from {@link BareBaseEntity},
 * in a package without: Hibernate looks for {@code @Crid} in the superclass's package
 * only, so no {@code @Crid} is in reach.
 */
@Entity
@Table(name = "crid_hib_pkg_on_bare_base")
public class PackageEntityOnBareBase extends BareBaseEntity {

	private String note = "PackageEntityOnBareBase";

	/**
	 * Creates an entity without an ID.
	 */
	public PackageEntityOnBareBase() {
	}

	/**
	 * Returns the note stored beside the ID.
	 * @return the note
	 */
	public String getNote() {
		return this.note;
	}

}
