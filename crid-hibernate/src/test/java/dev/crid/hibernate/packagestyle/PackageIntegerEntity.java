package dev.crid.hibernate.packagestyle;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * An {@code Integer} ID naming generator {@code "crid"}: a type that cannot hold a crid
 * ID.
 */
@Entity
@Table(name = "crid_hib_pkg_integer")
public class PackageIntegerEntity {

	@Id
	@GeneratedValue(generator = "crid")
	private Integer id;

	private String note = "PackageIntegerEntity";

	/**
	 * Creates an entity without an ID.
	 */
	public PackageIntegerEntity() {
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
	public Integer getId() {
		return this.id;
	}

}
