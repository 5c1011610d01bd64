package dev.crid.hibernate.nocrid;

import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.MappedSuperclass;

/**
 * A mapped superclass that declares a {@code Long} ID naming generator {@code "crid"}, in
 * a package without {@code @Crid}.
 */
@MappedSuperclass
public abstract class BareBaseEntity {

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
