package dev.crid.benchmarks.jpa;

import dev.crid.hibernate.Crid;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * A row whose identifier comes from a crid node.
 */
@Entity
@Table(name = "bench_jpa_crid_rows")
public class CridRow extends Row {

	@Id
	@Crid
	private Long id;

}
