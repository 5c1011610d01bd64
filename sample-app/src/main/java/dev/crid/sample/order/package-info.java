/**
 * Orders and their line items, stored with JPA. {@code @Crid} on this package gives every
 * identifier declared here with {@code @GeneratedValue(generator = "crid")} a crid ID
 * (see {@link LineItem}); {@link Order} shows the other style, {@code @Crid} on the
 * identifier itself.
 */
@Crid
package dev.crid.sample.order;

import dev.crid.hibernate.Crid;
