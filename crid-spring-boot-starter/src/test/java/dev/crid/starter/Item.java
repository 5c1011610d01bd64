package dev.crid.starter;

import dev.crid.hibernate.Crid;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * An entity whose ID comes from the application's CridNode.
 */
@Entity
@Table(name = "crid_starter_it_item")
class Item {

	@Id
	@Crid
	private Long id;

	private String name;

	protected Item() {
	}

	Item(String name) {
		this.name = name;
	}

	Long getId() {
		return this.id;
	}

	String getName() {
		return this.name;
	}

}
