package dev.crid;

import java.time.Instant;

/**
 * An ID taken apart by a {@link CridParser}.
 *
 * @param timestamp the second the ID's block was reserved in (not the moment the ID was
 * handed out)
 * @param sequence the ID's sequence number within that second
 */
public record ParsedId(Instant timestamp, long sequence) {
}
