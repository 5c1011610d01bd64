package dev.crid.autoconfigure.slices.jdbc;

import dev.crid.CridNode;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/**
 * Stores notes with plain JDBC, each under a crid ID taken from the node.
 */
@Repository
public class Notes {

	static final String TABLE = "crid_slice_notes";

	private final JdbcTemplate jdbc;

	private final CridNode ids;

	Notes(JdbcTemplate jdbc, CridNode ids) {
		this.jdbc = jdbc;
		this.ids = ids;
	}

	void createTable() {
		this.jdbc.execute("CREATE TABLE IF NOT EXISTS " + TABLE + " (id BIGINT PRIMARY KEY, text VARCHAR(100))");
	}

	long add(String text) {
		long id = this.ids.nextId();
		this.jdbc.update("INSERT INTO " + TABLE + " (id, text) VALUES (?, ?)", id, text);
		return id;
	}

	String find(long id) {
		return this.jdbc.queryForObject("SELECT text FROM " + TABLE + " WHERE id = ?", String.class, id);
	}

}
