package dev.crid.autoconfigure.slices.json;

import dev.crid.CridId;
import dev.crid.hibernate.Crid;

/**
 * A bean with crid IDs of both kinds.
 *
 * @param id its own ID, a {@code Long} annotated {@code @Crid}
 * @param orderId the order it belongs to, a {@link CridId}
 * @param total a plain number
 */
public record Receipt(@Crid Long id, CridId orderId, long total) {
}
