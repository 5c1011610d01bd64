package dev.crid.sample.events;

import java.time.Clock;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

import dev.crid.CridNode;
import dev.crid.sample.order.OrderCreated;

import org.springframework.stereotype.Service;
import org.springframework.transaction.event.TransactionalEventListener;

/**
 * Records an event with its own crid ID each time an order is committed, as an
 * application would before sending it to a message broker. The IDs come from the same
 * {@link CridNode} bean that gives the entities theirs, so events and entities never
 * share an ID. Keeps the most recent events in memory.
 */
@Service
public class OrderEvents {

	static final int CAPACITY = 1000;

	private final CridNode cridNode;

	private final Clock clock = Clock.systemUTC();

	private final Deque<OrderEvent> recent = new ArrayDeque<>();

	OrderEvents(CridNode cridNode) {
		this.cridNode = cridNode;
	}

	/**
	 * Records that an order was placed, once its transaction has committed.
	 * @param created the order that was placed
	 */
	@TransactionalEventListener
	public void orderCreated(OrderCreated created) {
		record(new OrderEvent(this.cridNode.next(), "order-created", created.orderId(), this.clock.instant()));
	}

	private synchronized void record(OrderEvent event) {
		if (this.recent.size() == CAPACITY) {
			this.recent.removeLast();
		}
		this.recent.addFirst(event);
	}

	/**
	 * Returns the most recent events.
	 * @return up to 1000 events, newest first
	 */
	public synchronized List<OrderEvent> recent() {
		return List.copyOf(this.recent);
	}

}
