package dev.crid.sample.order;

import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;

import dev.crid.CridId;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.data.domain.PageRequest;
import org.springframework.data.domain.Sort;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Places and reads orders. Hibernate assigns the crid IDs of the order and its items when
 * they are saved, before the INSERTs, so the inserts can be batched.
 */
@Service
public class OrderService {

	private static final Sort NEWEST_FIRST = Sort.by(Sort.Order.desc("createdAt"), Sort.Order.desc("id"));

	private final OrderRepository orders;

	private final ApplicationEventPublisher events;

	private final Clock clock = Clock.systemUTC();

	OrderService(OrderRepository orders, ApplicationEventPublisher events) {
		this.orders = orders;
		this.events = events;
	}

	/**
	 * Places an order.
	 * @param request the order, already validated
	 * @return the saved order, with its IDs
	 */
	@Transactional
	public OrderView create(NewOrder request) {
		// Databases keep microseconds: the order the client gets back is the order it
		// fetches later.
		Order order = new Order(request.customer(), this.clock.instant().truncatedTo(ChronoUnit.MICROS));
		request.items().forEach((item) -> order.addItem(item.product(), item.quantity()));
		OrderView saved = OrderView.of(this.orders.save(order));
		this.events.publishEvent(new OrderCreated(saved.id(), saved.items().size()));
		return saved;
	}

	/**
	 * Finds an order.
	 * @param id its ID
	 * @return the order, or empty if there is none with that ID
	 */
	@Transactional(readOnly = true)
	public Optional<OrderView> find(CridId id) {
		return this.orders.findById(id.value()).map(OrderView::of);
	}

	/**
	 * Lists the newest orders.
	 * @param limit how many at most
	 * @return the orders, newest first
	 */
	@Transactional(readOnly = true)
	public List<OrderView> newest(int limit) {
		return this.orders.findAll(PageRequest.of(0, limit, NEWEST_FIRST)).map(OrderView::of).toList();
	}

}
