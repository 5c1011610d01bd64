/**
 * Jackson 3 support: {@link dev.crid.CridId} and {@code @Crid} properties written as JSON
 * strings, so JavaScript clients keep every digit.
 */
@NullMarked
package dev.crid.autoconfigure.jackson;

import org.jspecify.annotations.NullMarked;
