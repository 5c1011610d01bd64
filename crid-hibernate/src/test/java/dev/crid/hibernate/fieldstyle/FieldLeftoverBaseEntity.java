package dev.crid.hibernate.fieldstyle;

import dev.crid.hibernate.Crid;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.MappedSuperclass;

/**
 * A mapped superclass whose ID has {@code @Crid} beside a leftover
 * {@code @GeneratedValue(strategy = IDENTITY)}, as a base entity adopted from an IDENTITY
 * mapping would.
 */
@MappedSuperclass
public abstract class FieldLeftoverBaseEntity {

	@Id
	@Crid
	@GeneratedValue(strategy = GenerationType.IDENTITY)
	private Long id;

}
