/**
 * What the health indicator and the endpoint tell of a registry, whatever its kind, without ever reserving a block.
 */
package dev.crid.autoconfigure.registry;
