/**
 * Spring Boot auto-configuration for crid: the {@code crid.*} properties, a {@link dev.crid.CridNode}
 * bean backed by the right registry, and the Jackson, health, metrics, endpoint and failure-analysis
 * support around it.
 */
@NullMarked
package dev.crid.autoconfigure;

import org.jspecify.annotations.NullMarked;
