package dev.crid.sample.events;

import java.time.Instant;

import dev.crid.CridId;

/**
 * Something that happened to an order, as a message to other systems would carry it.
 *
 * @param id the event's own crid ID, unique across every instance that shares the
 * registry
 * @param type what happened
 * @param orderId the order it happened to
 * @param occurredAt when the event was recorded
 */
public record OrderEvent(CridId id, String type, CridId orderId, Instant occurredAt) {
}
