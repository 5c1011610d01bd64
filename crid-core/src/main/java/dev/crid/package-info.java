/**
 * The crid generator: compact, unique 63-bit IDs built from a timestamp and a sequence
 * number reserved in blocks from a shared {@link dev.crid.Registry}. Start with
 * {@link dev.crid.CridNode#builder}.
 */
@NullMarked
package dev.crid;

import org.jspecify.annotations.NullMarked;
