/**
 * Test entities whose identifiers name generator {@code "crid"}, with {@code @Crid} on
 * this package.
 */
@Crid
package dev.crid.hibernate.packagestyle;

import dev.crid.hibernate.Crid;
