/**
 * Micrometer meters for a {@link dev.crid.CridNode}: allocations with their latency and
 * outcome, stalls, IDs issued and IDs left in the block.
 */
@NullMarked
package dev.crid.autoconfigure.metrics;

import org.jspecify.annotations.NullMarked;
