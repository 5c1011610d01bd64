/**
 * Auto-configuration of the actuator endpoint {@code crid}.
 */
@NullMarked
package dev.crid.autoconfigure.endpoint;

import org.jspecify.annotations.NullMarked;
