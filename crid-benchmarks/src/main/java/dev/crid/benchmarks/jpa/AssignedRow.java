package dev.crid.benchmarks.jpa;

import java.util.concurrent.atomic.AtomicLong;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * A row whose identifier the application assigns from one {@link AtomicLong} before it is
 * persisted: no generator and no round trip for the identifier at all, so no strategy can
 * insert faster. The floor that the others are measured against.
 */
@Entity
@Table(name = "bench_jpa_assigned_rows")
public class AssignedRow extends Row {

	/** The application's counter, shared by every row. */
	private static final AtomicLong IDS = new AtomicLong();

	@Id
	private Long id;

	/**
	 * For Hibernate; the application creates rows with {@link #withNextId()}.
	 */
	protected AssignedRow() {
	}

	/**
	 * A new row, its identifier taken from the application's counter.
	 * @return the row
	 */
	public static AssignedRow withNextId() {
		AssignedRow row = new AssignedRow();
		row.id = IDS.getAndIncrement();
		return row;
	}

}
