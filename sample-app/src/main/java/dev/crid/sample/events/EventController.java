package dev.crid.sample.events;

import java.util.List;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /events}: the most recent order events.
 */
@RestController
public class EventController {

	private final OrderEvents events;

	EventController(OrderEvents events) {
		this.events = events;
	}

	/**
	 * Lists the most recent events.
	 * @return up to 1000 events, newest first
	 */
	@GetMapping("/events")
	public List<OrderEvent> recent() {
		return this.events.recent();
	}

}
