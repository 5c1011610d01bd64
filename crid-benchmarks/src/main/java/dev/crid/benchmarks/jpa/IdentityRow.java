package dev.crid.benchmarks.jpa;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * A row whose identifier the database assigns during the INSERT, which keeps Hibernate
 * from batching.
 */
@Entity
@Table(name = "bench_jpa_identity_rows")
public class IdentityRow extends Row {

	@Id
	@GeneratedValue(strategy = GenerationType.IDENTITY)
	private Long id;

}
