/**
 * What the health indicator and the endpoint tell of a registry, whatever its kind,
 * without ever reserving a block.
 */
@NullMarked
package dev.crid.autoconfigure.registry;

import org.jspecify.annotations.NullMarked;
