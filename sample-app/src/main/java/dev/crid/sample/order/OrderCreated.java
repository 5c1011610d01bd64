package dev.crid.sample.order;

import dev.crid.CridId;

/**
 * Published when an order has been placed; listeners that care about the commit use
 * {@code @TransactionalEventListener}.
 *
 * @param orderId the new order's ID
 * @param itemCount how many line items it has
 */
public record OrderCreated(CridId orderId, int itemCount) {
}
