/**
 * The {@code @JsonTest} slice test with crid in it, and the small application it is cut
 * from.
 */
package dev.crid.autoconfigure.slices.json;
