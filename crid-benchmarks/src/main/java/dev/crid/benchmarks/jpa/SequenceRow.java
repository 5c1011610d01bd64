package dev.crid.benchmarks.jpa;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;

/**
 * A row whose identifier comes from a database sequence through Hibernate's pooled
 * optimizer: one {@code nextval} per 50 rows.
 */
@Entity
@Table(name = "bench_jpa_sequence_rows")
public class SequenceRow extends Row {

	@Id
	@GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "bench_jpa_sequence_rows_seq")
	@SequenceGenerator(name = "bench_jpa_sequence_rows_seq", sequenceName = "bench_jpa_sequence_rows_seq",
			allocationSize = 50)
	private Long id;

}
