/**
 * Spring Boot auto-configuration for crid: the {@code crid.*} properties, a
 * {@link dev.crid.CridNode} bean backed by the right registry, and the failure analysis
 * of an invalid configuration. The support for databases, health, metrics, the endpoint,
 * Jackson, the web and Hibernate lives in sub-packages, one per concern.
 */
@NullMarked
package dev.crid.autoconfigure;

import org.jspecify.annotations.NullMarked;
