package dev.crid.benchmarks.jpa;

import java.util.UUID;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.annotations.UuidGenerator;

/**
 * A row whose identifier is Hibernate's time-based UUID, generated in memory.
 */
@Entity
@Table(name = "bench_jpa_uuid_rows")
public class UuidRow extends Row {

	@Id
	@UuidGenerator(style = UuidGenerator.Style.TIME)
	private UUID id;

}
