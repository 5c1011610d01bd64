package dev.crid.data.jdbc;

import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

import dev.crid.data.Crid;

/**
 * An aggregate with a primitive {@code long} ID, unset while 0.
 */
@Table("crid_data_counter")
class Counter {

	@Id
	@Crid
	long id;

	long hits;

	Counter(long hits) {
		this.hits = hits;
	}

}
