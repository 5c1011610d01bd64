/**
 * crid IDs as text: the forms an ID travels in ({@link dev.crid.format.IdFormat}, decimal
 * or base32), and a Spring {@code Formatter} that binds request values in one of them.
 * Usable without Spring Boot's auto-configuration.
 */
@NullMarked
package dev.crid.format;

import org.jspecify.annotations.NullMarked;
