/**
 * Domain events with crid IDs taken straight from the {@link dev.crid.CridNode} bean,
 * without JPA.
 */
package dev.crid.sample.events;
