package dev.crid.hibernate.packagestyle;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * A {@code Long} ID with {@code @GeneratedValue(strategy = IDENTITY)} in the package that
 * carries {@code @Crid}: Hibernate gives it an identity column, not crid IDs.
 */
@Entity
@Table(name = "crid_hib_pkg_identity")
public class PackageIdentityEntity {

	@Id
	@GeneratedValue(strategy = GenerationType.IDENTITY)
	private Long id;

}
