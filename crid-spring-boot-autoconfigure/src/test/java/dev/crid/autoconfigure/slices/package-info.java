/**
 * Spring Boot's test slices with crid in them, each on the slice's embedded database and
 * on PostgreSQL; one sub-package, with its own application class, per slice.
 */
package dev.crid.autoconfigure.slices;
