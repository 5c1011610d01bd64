package dev.crid.starter.r2dbc;

import org.springframework.data.repository.reactive.ReactiveCrudRepository;

/**
 * Stores orders.
 */
public interface OrderRepository extends ReactiveCrudRepository<Order, Long> {

}
