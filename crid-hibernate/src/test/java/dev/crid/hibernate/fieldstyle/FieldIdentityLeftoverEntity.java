package dev.crid.hibernate.fieldstyle;

import dev.crid.hibernate.Crid;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * A {@code Long} ID with {@code @Crid} on the field beside a leftover
 * {@code @GeneratedValue(strategy = IDENTITY)}.
 */
@Entity
@Table(name = "crid_hib_field_identity_leftover")
public class FieldIdentityLeftoverEntity {

	@Id
	@Crid
	@GeneratedValue(strategy = GenerationType.IDENTITY)
	private Long id;

}
