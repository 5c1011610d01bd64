/**
 * Auto-configuration of crid's meters: one binder for every node.
 */
@NullMarked
package dev.crid.autoconfigure.metrics;

import org.jspecify.annotations.NullMarked;
