package dev.crid.sql;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * A reserved block's start, and the database's clock during the reservation.
 *
 * @param start the first sequence number of the block
 * @param databaseTime the database's clock, or {@code null} where the dialect reads none
 */
public record SqlReservation(long start, @Nullable Instant databaseTime) {
}
