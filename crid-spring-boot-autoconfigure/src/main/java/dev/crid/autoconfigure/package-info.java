/**
 * Spring Boot auto-configuration for crid: the {@code crid.*} properties, a {@link dev.crid.CridNode}
 * bean backed by the right registry, and the Jackson, health, metrics, endpoint and failure-analysis
 * support around it.
 */
package dev.crid.autoconfigure;
