/**
 * Test entities in a package without {@code @Crid}: the ones that name generator
 * {@code "crid"} must stop the {@code SessionFactory} unless the class itself carries
 * {@code @Crid}.
 */
package dev.crid.hibernate.nocrid;
