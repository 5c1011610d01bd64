/**
 * Jackson 3 support for crid IDs: {@link dev.crid.jackson.CridJacksonModule} writes
 * {@link dev.crid.CridId} values, and {@code @Crid} properties, as JSON strings, so that
 * JavaScript clients keep every digit. Usable without Spring Boot's auto-configuration,
 * which only adds the module to Boot's JSON mapper.
 */
@NullMarked
package dev.crid.jackson;

import org.jspecify.annotations.NullMarked;
