package dev.crid.hibernate.nocrid;

import dev.crid.hibernate.Crid;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * A {@code Long} ID with {@code @GeneratedValue(strategy = SEQUENCE)} in a class that
 * carries {@code @Crid}: Hibernate gives it a sequence, not crid IDs.
 */
@Crid
@Entity
@Table(name = "crid_hib_class_sequence")
public class ClassSequenceEntity {

	@Id
	@GeneratedValue(strategy = GenerationType.SEQUENCE)
	private Long id;

}
