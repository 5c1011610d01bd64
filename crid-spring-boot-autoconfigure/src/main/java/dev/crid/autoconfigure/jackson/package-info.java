/**
 * Auto-configuration of crid's Jackson module for Spring Boot's JSON mapper.
 */
@NullMarked
package dev.crid.autoconfigure.jackson;

import org.jspecify.annotations.NullMarked;
