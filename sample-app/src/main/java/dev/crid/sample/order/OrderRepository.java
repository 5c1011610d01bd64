package dev.crid.sample.order;

import org.springframework.data.jpa.repository.JpaRepository;

/**
 * Stores orders, and their line items with them.
 */
public interface OrderRepository extends JpaRepository<Order, Long> {

}
