package dev.crid.data.jdbc;

import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

import dev.crid.data.Crid;

/**
 * A mutable aggregate with a decimal {@code String} ID, set in place.
 */
@Table("crid_data_label")
class Label {

	@Id
	@Crid
	private String id;

	private String caption;

	Label(String caption) {
		this.caption = caption;
	}

	String getId() {
		return this.id;
	}

	void setId(String id) {
		this.id = id;
	}

	String getCaption() {
		return this.caption;
	}

	void setCaption(String caption) {
		this.caption = caption;
	}

}
