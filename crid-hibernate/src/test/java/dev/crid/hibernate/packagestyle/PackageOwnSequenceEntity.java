package dev.crid.hibernate.packagestyle;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;

/**
 * A {@code Long} ID that names a sequence generator of its own, in the package that
 * carries {@code @Crid}: left to its sequence.
 */
@Entity
@Table(name = "crid_hib_pkg_own_sequence")
public class PackageOwnSequenceEntity {

	@Id
	@GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "crid_hib_own_sequence")
	@SequenceGenerator(name = "crid_hib_own_sequence", sequenceName = "crid_hib_own_sequence")
	private Long id;

}
