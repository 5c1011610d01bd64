package dev.crid.autoconfigure.slices.web;

import dev.crid.CridId;
import dev.crid.CridNode;
import dev.crid.hibernate.Crid;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * A controller that runs on Spring MVC and on WebFlux alike: takes crid IDs as request
 * parameters and hands out new ones.
 */
@RestController
public class IdController {

	private final CridNode node;

	IdController(CridNode node) {
		this.node = node;
	}

	@GetMapping("/ids/{id}")
	Echo pathVariable(@PathVariable CridId id) {
		return new Echo(id, id.value());
	}

	@GetMapping("/ids")
	Echo requestParameter(@RequestParam("after") CridId after) {
		return new Echo(after, after.value());
	}

	@GetMapping("/new-id")
	Echo newId() {
		CridId id = this.node.next();
		return new Echo(id, id.value());
	}

	/**
	 * An ID as a {@link CridId} and as a {@code @Crid long}, both JSON strings.
	 *
	 * @param id the ID
	 * @param value the same ID
	 */
	record Echo(CridId id, @Crid long value) {
	}

}
