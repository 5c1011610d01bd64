package dev.crid.sample.ids;

import java.time.Instant;

import dev.crid.CridId;

/**
 * An ID taken apart.
 *
 * @param id the ID
 * @param timestamp the second it was issued in (the second its block was reserved for)
 * @param sequence its sequence number within that second
 */
public record DecodedId(CridId id, Instant timestamp, long sequence) {
}
