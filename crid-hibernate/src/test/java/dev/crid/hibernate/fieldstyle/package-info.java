/**
 * Test entities with {@code @Crid} on the identifier itself.
 */
package dev.crid.hibernate.fieldstyle;
