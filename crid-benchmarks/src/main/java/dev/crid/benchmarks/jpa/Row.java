package dev.crid.benchmarks.jpa;

import java.time.Instant;

import jakarta.persistence.MappedSuperclass;

/**
 * The columns every benchmark entity shares besides its identifier: a small row, as an
 * order line or an event would be.
 */
@MappedSuperclass
// The columns are written for Hibernate, which reads them; the benchmark never does.
@SuppressWarnings("UnusedVariable")
public abstract class Row {

	private String name;

	private long amount;

	private Instant createdAt;

	/**
	 * Fills the row's columns.
	 * @param number the row's number within its batch
	 * @param now the time stamped on the row
	 * @return this row
	 */
	public Row fill(long number, Instant now) {
		this.name = "row-" + number;
		this.amount = number * 7;
		this.createdAt = now;
		return this;
	}

}
