/**
 * Decoding crid IDs: {@code GET /ids/{id}} shows the second an ID was issued in and its
 * sequence number.
 */
package dev.crid.sample.ids;
