package dev.crid.hibernate.fieldstyle;

import dev.crid.hibernate.Crid;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * A {@code Long} ID with {@code @Crid} on the field beside a leftover
 * {@code @GeneratedValue(strategy = SEQUENCE)}.
 */
@Entity
@Table(name = "crid_hib_field_sequence_leftover")
public class FieldSequenceLeftoverEntity {

	@Id
	@Crid
	@GeneratedValue(strategy = GenerationType.SEQUENCE)
	private Long id;

}
