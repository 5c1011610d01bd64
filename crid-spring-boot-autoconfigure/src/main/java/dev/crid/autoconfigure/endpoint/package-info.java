/**
 * The actuator endpoint {@code crid}: the node's layout, registry and statistics, and the decoding of an ID.
 */
package dev.crid.autoconfigure.endpoint;
