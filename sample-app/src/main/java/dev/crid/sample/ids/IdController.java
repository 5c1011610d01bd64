package dev.crid.sample.ids;

import dev.crid.CridId;
import dev.crid.CridParser;
import dev.crid.ParsedId;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /ids/{id}}: decodes any crid ID with the application's layout, using the
 * {@link CridParser} bean that the crid starter provides.
 */
@RestController
public class IdController {

	private final CridParser parser;

	IdController(CridParser parser) {
		this.parser = parser;
	}

	/**
	 * Decodes an ID.
	 * @param id the ID, in decimal (crid binds it; one that is not a non-negative decimal
	 * {@code long} is a 400 with the reason)
	 * @return its timestamp and sequence number
	 */
	@GetMapping("/ids/{id}")
	public DecodedId decode(@PathVariable CridId id) {
		ParsedId parsed = this.parser.parse(id);
		return new DecodedId(id, parsed.timestamp(), parsed.sequence());
	}

}
